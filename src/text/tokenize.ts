import { normalize } from './normalize.ts';

/**
 * The tokenizer shared by search documents and search queries, so both are cut the same way.
 * It reads normalised text (see normalize.ts) and splits it into runs of one kind:
 * - `word`: letters and digits of any script but Japanese (`eurorack`, `104hp`, `vco`), one term each;
 * - `japanese`: kana, ideographs, ー and 々. Japanese has no spaces between words, so a run becomes
 *   its character bigrams (`シンセ` → `シン` `ンセ`) and a part of a compound still finds the
 *   compound; a run of one character stays a unigram.
 * Anything else (spaces, punctuation, symbols, ・) separates runs, and so does a change of kind:
 * `eurorackケース` is `eurorack` + `ケース`.
 */
export interface TextRun {
  kind: 'word' | 'japanese';
  text: string;
  /** UTF-16 offsets of the run in the text it was found in. */
  start: number;
  end: number;
}

/** The characters of Japanese runs, as the body of a regular expression class (v flag). */
export const JAPANESE = String.raw`\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc`;
const RUNS = new RegExp(String.raw`([${JAPANESE}]+)|[[\p{L}\p{N}\p{M}]--[${JAPANESE}]]+`, 'gv');

/** The runs of normalised text, in order. */
export function textRuns(normalized: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const match of normalized.matchAll(RUNS)) {
    const start = match.index;
    runs.push({ kind: match[1] === undefined ? 'word' : 'japanese', text: match[0], start, end: start + match[0].length });
  }
  return runs;
}

const WORD_CHARACTER = new RegExp(String.raw`^[[\p{L}\p{N}\p{M}]--[${JAPANESE}]]$`, 'v');

/**
 * Whether `normalized[start..end)`, a word, stands alone there: a whole `word` run of textRuns, not
 * part of a longer one. Finding a word this way is much faster than cutting a long text into runs.
 */
export function isWholeWord(normalized: string, start: number, end: number): boolean {
  return !isWordCharacter(codePointBefore(normalized, start)) && !isWordCharacter(normalized.codePointAt(end));
}

function isWordCharacter(code: number | undefined): boolean {
  return code !== undefined && WORD_CHARACTER.test(String.fromCodePoint(code));
}

function codePointBefore(text: string, index: number): number | undefined {
  if (index === 0) return undefined;
  const low = text.charCodeAt(index - 1);
  const high = index > 1 ? text.charCodeAt(index - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? text.codePointAt(index - 2) : low;
}

const JAPANESE_START = new RegExp(`^[${JAPANESE}]`, 'v');

/** Whether a term came from a Japanese run (a bigram or unigram) rather than a word. */
export function isJapaneseTerm(term: string): boolean {
  return JAPANESE_START.test(term);
}

/** The index terms of one run: the word itself, or the bigrams of a Japanese run. */
export function runTerms(run: TextRun): string[] {
  if (run.kind === 'word') return [run.text];
  return bigrams(run.text);
}

/** Character bigrams by code point; a single character is its own unigram. */
export function bigrams(text: string): string[] {
  const chars = Array.from(text);
  if (chars.length === 1) return chars;
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  return grams;
}

/** Every term of a text, normalised first: what the index stores for a document field. */
export function tokenize(text: string): string[] {
  return textRuns(normalize(text)).flatMap(runTerms);
}
