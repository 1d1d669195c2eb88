import { normalize, normalizeWithMap, type MappedText } from '../text/normalize.ts';
import type { ContentDocument } from './index-fields.ts';
import { excerptBody, forgetCuts, type ExcerptBody } from './excerpt.ts';
import { RecentCache } from '../recent-cache.ts';

/**
 * What answering a search reads of a page besides the page itself: its title and body normalised,
 * with the map back to the original (highlight.ts), its description normalised, and where each
 * code point of the body starts (excerpt.ts). Worked out on a page's hit and kept, as the content
 * never changes while the service runs: doing it again for every hit of every query was a fifth of
 * the cost of an uncached search (bench/search.ts). A page costs about 2 bytes per character of its
 * text (maps of text normalised unit for unit, most of it, share one array: normalize.ts counting),
 * up to 20 where every character changes. Kept for MAX_KEPT_UNITS characters of pages at most, the
 * pages not hit recently forgotten (recent-cache.ts): every page of a shop's site, but not the whole of a
 * site of tens of thousands of pages, whose pages a search hit once would otherwise all be kept.
 */
export interface PageText {
  title: MappedText;
  body: MappedText;
  description: string;
  /** The body as excerpts are cut from it. */
  excerptBody: ExcerptBody;
}

/** UTF-16 units of page text (title, body, description) kept at most: 8 to 80 MB. */
export const MAX_KEPT_UNITS = 4_000_000;

/** By page. */
const kept = new RecentCache<ContentDocument, PageText>(MAX_KEPT_UNITS, {
  weigh: (_text, page) => page.title.length + page.body.length + page.description.length,
  forget: (text) => forgetCuts(text.excerptBody),
});

export function pageText(page: ContentDocument): PageText {
  return kept.getOrCompute(page, () => ({
    title: normalizeWithMap(page.title),
    body: normalizeWithMap(page.body),
    description: normalize(page.description),
    excerptBody: excerptBody(page.body),
  }));
}
