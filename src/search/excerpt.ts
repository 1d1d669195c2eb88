import { counting } from '../text/normalize.ts';
import { markHtml, type Span } from './highlight.ts';

export interface Excerpt {
  text: string;
  html: string;
}

/**
 * A page's body as excerpts are cut from it: where each code point starts, and the word boundaries
 * found so far. Finding a boundary asks the word segmenter, which was a fifth of the cost of an
 * uncached search (bench/search.ts); each answer depends on the body alone, and the content never
 * changes while the service runs, so a body's answers are kept (page-text.ts keeps one per page).
 */
export interface ExcerptBody {
  text: string;
  points: Uint32Array;
  /** Cut positions found, by the boundary function and its arguments (see kept). */
  cuts: Map<number, number>;
}

export function excerptBody(text: string): ExcerptBody {
  return { text, points: codePointOffsets(text), cuts: new Map() };
}

/**
 * Cuts kept over all bodies at most (a few MB): a body's possible cuts are bounded by its length,
 * but a site of thousands of pages would hold many. Past it every body forgets its cuts and starts
 * again, which changes no answer.
 */
const MAX_KEPT_CUTS = 100_000;

const bodiesWithCuts = new Set<ExcerptBody>();
let keptCuts = 0;

/** Forgets the cuts kept for a body (page-text.ts forgets the page). */
export function forgetCuts(body: ExcerptBody): void {
  if (!bodiesWithCuts.delete(body)) return;
  keptCuts -= body.cuts.size;
  body.cuts.clear();
}

const ELLIPSIS = '…';

/**
 * At most `length` code points of `body` centred on the first match (the start of the body when
 * nothing in it matched), with `…` at each end where the body was cut, and the same excerpt as
 * HTML with the matches marked. Cuts move inward to the nearest word boundary when one is close
 * (Intl.Segmenter knows Japanese words), else fall between characters.
 */
export function makeExcerpt(source: ExcerptBody | string, matches: Span[], length: number): Excerpt {
  const prepared = typeof source === 'string' ? excerptBody(source) : source;
  const { text: body, points } = prepared;
  const total = points.length - 1;
  if (total <= length) return { text: body, html: markHtml(body, matches) };

  const first = matches[0];
  let start = 0;
  let keepFrom = 0;
  let keepTo = 0;
  if (first) {
    keepFrom = toCodePoint(points, first.start);
    keepTo = toCodePoint(points, first.end);
    const matchLength = keepTo - keepFrom;
    start = matchLength >= length ? keepFrom : Math.round((keepFrom + keepTo) / 2 - length / 2);
    start = Math.min(Math.max(start, 0), total - length);
  }
  let end = start + length;
  const reach = Math.min(MAX_SHIFT, Math.floor(length / 5));
  if (start > 0) start = kept(prepared, boundaryAfter, start, Math.min(start + reach, first ? keepFrom : start + reach));
  if (end < total) end = kept(prepared, boundaryBefore, end, Math.max(end - reach, first ? keepTo : end - reach));
  while (start < end && /\s/.test(body[points[start]!]!)) start++;
  while (end > start && /\s/.test(body[points[end]! - 1]!)) end--;

  const from = points[start]!;
  const to = points[end]!;
  const before = start > 0 ? ELLIPSIS : '';
  const after = end < total ? ELLIPSIS : '';
  return { text: before + body.slice(from, to) + after, html: before + markHtml(body, matches, from, to) + after };
}

/** How far (in code points) a cut may move to land on a word boundary. */
const MAX_SHIFT = 20;

type Boundary = (body: string, points: Uint32Array, at: number, limit: number) => number;

/** A boundary function's answer for this body, worked out once. */
function kept(prepared: ExcerptBody, find: Boundary, at: number, limit: number): number {
  const shift = limit - at;
  if (Math.abs(shift) > MAX_SHIFT) return find(prepared.text, prepared.points, at, limit);
  const key = 2 * (at * (2 * MAX_SHIFT + 1) + shift + MAX_SHIFT) + (find === boundaryAfter ? 1 : 0);
  let cut = prepared.cuts.get(key);
  if (cut === undefined) {
    if (keptCuts >= MAX_KEPT_CUTS) {
      for (const body of bodiesWithCuts) body.cuts.clear();
      bodiesWithCuts.clear();
      keptCuts = 0;
    }
    prepared.cuts.set(key, (cut = find(prepared.text, prepared.points, at, limit)));
    bodiesWithCuts.add(prepared);
    keptCuts++;
  }
  return cut;
}

const SEGMENT_CONTEXT = 10;

let segmenter: Intl.Segmenter | undefined;

/**
 * The body's word segments around code points [low, high], read by the segmenter with context on
 * both sides: the slice's own ends are not word boundaries, and the segmenter reads words from
 * their context. The boundaries are asked for with `containing`, which spares making an object for
 * every segment of the slice (that was a sixth of an uncached search).
 */
function segmentsAround(body: string, points: Uint32Array, low: number, high: number) {
  segmenter ??= new Intl.Segmenter('ja', { granularity: 'word' });
  const from = Math.max(low - SEGMENT_CONTEXT, 0);
  const to = Math.min(high + SEGMENT_CONTEXT, points.length - 1);
  return { segments: segmenter.segment(body.slice(points[from]!, points[to]!)), offset: points[from]!, to };
}

/** The first word boundary in [at, limit], or `at` when there is none. The body's end is one. */
function boundaryAfter(body: string, points: Uint32Array, at: number, limit: number): number {
  if (limit <= at) return at;
  const { segments, offset, to } = segmentsAround(body, points, at, limit);
  const segment = segments.containing(points[at]! - offset)!;
  if (offset + segment.index === points[at]) return at;
  const next = toCodePoint(points, offset + segment.index + segment.segment.length);
  // The slice's end is a boundary only where the body ends.
  return next <= limit && (next < to || to === points.length - 1) ? next : at;
}

/** The last word boundary in [limit, at], or `at` when there is none. */
function boundaryBefore(body: string, points: Uint32Array, at: number, limit: number): number {
  if (limit >= at || at === points.length - 1) return at;
  const { segments, offset } = segmentsAround(body, points, limit, at);
  const start = toCodePoint(points, offset + segments.containing(points[at]! - offset)!.index);
  return start >= limit ? start : at;
}

/** UTF-16 offset of each code point, plus the length at the end. */
export function codePointOffsets(text: string): Uint32Array {
  if (!SURROGATE.test(text)) return counting(0, text.length + 1);
  const offsets = new Uint32Array(text.length + 1);
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    offsets[count++] = i;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
  }
  offsets[count] = text.length;
  return offsets.subarray(0, count + 1);
}

// Without the u or v flag a class matches UTF-16 units, so this finds either half of any pair.
const SURROGATE = /[\ud800-\udfff]/;

/** The code point index of a UTF-16 offset (the one that contains it). */
function toCodePoint(points: Uint32Array, offset: number): number {
  let low = 0;
  let high = points.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (points[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
