import { normalize, normalizeWithMap, type MappedText } from '../text/normalize.ts';
import type { ContentDocument } from './index-fields.ts';
import { excerptBody, type ExcerptBody } from './excerpt.ts';

/**
 * What answering a search reads of a page besides the page itself: its title and body normalised,
 * with the map back to the original (highlight.ts), its description normalised, and where each
 * code point of the body starts (excerpt.ts). Worked out on a page's first hit and kept, as the
 * content never changes while the service runs: doing it again for every hit of every query was a
 * fifth of the cost of an uncached search (bench/search.ts). A page costs about its body again:
 * maps of text normalised unit for unit, most of it, share one array (normalize.ts counting).
 */
export interface PageText {
  title: MappedText;
  body: MappedText;
  description: string;
  /** The body as excerpts are cut from it. */
  excerptBody: ExcerptBody;
}

const kept = new WeakMap<ContentDocument, PageText>();

export function pageText(page: ContentDocument): PageText {
  let text = kept.get(page);
  if (!text) {
    text = {
      title: normalizeWithMap(page.title),
      body: normalizeWithMap(page.body),
      description: normalize(page.description),
      excerptBody: excerptBody(page.body),
    };
    kept.set(page, text);
  }
  return text;
}
