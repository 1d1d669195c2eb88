import type { MappedText } from '../text/normalize.ts';
import { escapeHtml } from '../text/safe-text.ts';
import { bigrams, isWholeWord } from '../text/tokenize.ts';
import type { MatchTargets } from './query.ts';

/** A half-open range of UTF-16 offsets in the original text. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Where the query matched in one text, as spans of the ORIGINAL text (the normalised one is
 * searched, and its offsets mapped back): whole words that matched a query word, and each
 * occurrence of a Japanese query run. A run that occurs nowhere whole in the document (it matched
 * through bigrams found apart) is shown by its bigrams instead: `runsFoundWhole` says which.
 * Sorted, overlaps merged.
 */
export function findMatches(mapped: MappedText, targets: MatchTargets, runsFoundWhole: ReadonlySet<string>): Span[] {
  const found: Span[] = [];
  const add = (start: number, end: number) => found.push({ start: mapped.start[start]!, end: mapped.end[end - 1]! });
  for (const word of targets.words) {
    for (let at = mapped.text.indexOf(word); at !== -1; at = mapped.text.indexOf(word, at + 1)) {
      if (isWholeWord(mapped.text, at, at + word.length)) add(at, at + word.length);
    }
  }
  for (const run of targets.japanese) {
    for (const needle of runsFoundWhole.has(run) ? [run] : bigrams(run)) {
      for (let at = mapped.text.indexOf(needle); at !== -1; at = mapped.text.indexOf(needle, at + 1)) add(at, at + needle.length);
    }
  }
  return merge(found);
}

/** The query's Japanese runs that occur whole in at least one of these (normalised) texts. */
export function runsFoundWhole(targets: MatchTargets, texts: string[]): Set<string> {
  return new Set(targets.japanese.filter((run) => texts.some((text) => text.includes(run))));
}

function merge(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * `text[from..to]` as HTML: the spans (clipped to the range) wrapped in <mark>, everything else
 * escaped, so markup in the content is shown, never interpreted.
 */
export function markHtml(text: string, spans: Span[], from = 0, to = text.length): string {
  let html = '';
  let at = from;
  for (const span of spans) {
    const start = Math.max(span.start, from);
    const end = Math.min(span.end, to);
    if (start >= end) continue;
    html += escapeHtml(text.slice(at, start)) + '<mark>' + escapeHtml(text.slice(start, end)) + '</mark>';
    at = end;
  }
  return html + escapeHtml(text.slice(at, to));
}
