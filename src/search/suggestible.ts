import { codePointLength } from '../text/code-points.ts';
import { tokenize } from '../text/tokenize.ts';
import type { SearchIndex } from './index-fields.ts';

/** The most a keyword suggestion may be: shoppers' short searches, not somebody's sentence. */
export const SUGGESTED_KEYWORD_MAX_WORDS = 3;
export const SUGGESTED_KEYWORD_MAX_LENGTH = 30;

/** A link, an address, or a masked address or phone number (`＊`, see keyword-log/contact-details.ts). */
const NEVER_SUGGESTED = /:\/\/|www\.|@|＊/i;

/**
 * Whether a searched keyword (normalised as search normalises it) may become a search suggestion:
 * at most 3 words and 30 characters, no URL, `@` or `＊`, and every word of it in the site's index
 * (each of its terms, a word or the bigrams of a Japanese word, is an index term): a keyword made
 * of words the site does not hold is somebody's text, not a way into the site. Whether enough
 * shoppers searched it is the keyword log's to count (keyword-log/suggestions.ts).
 */
export function suggestibleKeyword(index: SearchIndex): (keyword: string) => boolean {
  const inIndex = (term: string) => index.miniSearch.search(term, { prefix: false, fuzzy: false, tokenize: (text) => [text] }).length > 0;
  return (keyword) => {
    if (keyword === '' || codePointLength(keyword) > SUGGESTED_KEYWORD_MAX_LENGTH || NEVER_SUGGESTED.test(keyword)) return false;
    const words = keyword.split(' ');
    if (words.length > SUGGESTED_KEYWORD_MAX_WORDS) return false;
    return words.every((word) => {
      const terms = tokenize(word);
      return terms.length > 0 && terms.every(inIndex);
    });
  };
}
