import { normalize, normalizeWithMap, type MappedText } from '../text/normalize.ts';
import type { ContentDocument } from './index-fields.ts';
import { excerptBody, forgetCuts, type ExcerptBody } from './excerpt.ts';
import { RecentCache } from '../serving/recent-cache.ts';

/**
 * What answering a search reads of a page besides the page: its title and body normalised with the
 * map back to the original (highlight.ts), its description normalised, and where each code point of
 * the body starts (excerpt.ts). Worked out on a page's first hit and kept (content never changes while
 * the service runs; redoing it was a fifth of an uncached search), about 2 bytes per character, up to
 * MAX_KEPT_UNITS characters in all, the pages not hit recently forgotten: a whole shop's site, but
 * not a site of tens of thousands of pages.
 */ export interface PageText {
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
