/**
 * The one text normaliser shared by the catalog filter and site search, so a query matches the same
 * way everywhere: NFKC (full-width Latin → ASCII, half-width katakana → full-width), lower case, and
 * hiragana → katakana (しんせ ≡ シンセ).
 */
export function normalize(text: string): string {
  return hiraganaToKatakana(text.normalize('NFKC').toLowerCase());
}

/** ぁ..ゖ and the iteration marks ゝゞ sit exactly 0x60 below their katakana counterparts. */
const HIRAGANA = /[\u3041-\u3096\u309d\u309e]/g;
const KATAKANA_OFFSET = 0x60;

export function hiraganaToKatakana(text: string): string {
  return text.replace(HIRAGANA, (kana) => String.fromCharCode(kana.charCodeAt(0) + KATAKANA_OFFSET));
}

/**
 * Normalised text that remembers where each of its UTF-16 units came from. NFKC changes lengths
 * (ｶﾞ → ガ, ㌔ → キロ, ﬁ → fi), so a span found in the normalised text is mapped back through
 * these tables to mark or cut the original.
 */
export interface MappedText {
  text: string;
  /** `start[i]`..`end[i]` is the span of the original that produced unit `i` of `text`. */
  start: Uint32Array;
  end: Uint32Array;
}

/**
 * `normalize(text)` with the map back to `text`. Characters normalize() maps one to one (ASCII,
 * full-width ASCII, kana, ideographs, most punctuation) are taken in runs; anything else is
 * normalised a cluster at a time (a character and the marks that compose with it), which
 * gives the same text as normalising it whole for everything but contrived input (a test holds the
 * two equal over the site's content).
 */
export function normalizeWithMap(text: string): MappedText {
  const length = text.length;
  let start = new Uint32Array(length + 16);
  let end = new Uint32Array(length + 16);
  let size = 0;
  const parts: string[] = [];
  let runStart = 0;
  let unitForUnit = true;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (isOneToOne(code) && !joinsPrevious(text, i + 1)) {
      start[size] = i;
      end[size++] = i + 1;
      i++;
      continue;
    }
    unitForUnit = false;
    if (runStart < i) parts.push(normalize(text.slice(runStart, i)));
    let j = i + (code >= 0xd800 && code <= 0xdbff && i + 1 < length ? 2 : 1);
    while (j < length && joinsPrevious(text, j)) j += text.codePointAt(j)! > 0xffff ? 2 : 1;
    const normalized = normalize(text.slice(i, j));
    if (size + normalized.length > start.length) {
      start = grow(start, size + normalized.length + length - j);
      end = grow(end, start.length);
    }
    for (let unit = 0; unit < normalized.length; unit++) {
      start[size] = i;
      end[size++] = j;
    }
    parts.push(normalized);
    i = runStart = j;
  }
  if (runStart < length) parts.push(normalize(text.slice(runStart)));
  const normalized = parts.join('');
  if (unitForUnit) return { text: normalized, start: counting(0, size), end: counting(1, size) };
  return { text: normalized, start: start.subarray(0, size), end: end.subarray(0, size) };
}

/**
 * `from, from + 1, …` (`size` of them): the map of a text normalised unit for unit, as most are.
 * Views of one shared array, so a map kept for every page of the site (search.ts) costs nothing.
 */
export function counting(from: number, size: number): Uint32Array {
  if (from + size > numbers.length) {
    numbers = new Uint32Array(Math.max(from + size, numbers.length * 2));
    for (let n = 0; n < numbers.length; n++) numbers[n] = n;
  }
  return numbers.subarray(from, from + size);
}

let numbers = new Uint32Array(0);

/**
 * Whether normalize() maps this UTF-16 unit, alone, to exactly one unit: learnt per unit on first
 * sight (0 unknown, 1 yes, 2 no), so most of a text is taken in runs. Surrogates and marks that
 * compose with what precedes them are never one to one.
 */
const oneToOne = new Uint8Array(0x10000);

function isOneToOne(code: number): boolean {
  let known = oneToOne[code]!;
  if (known === 0) {
    const char = String.fromCharCode(code);
    const single = !(code >= 0xd800 && code <= 0xdfff) && normalize(char).length === 1 && !COMBINING.test(char);
    oneToOne[code] = known = single ? 1 : 2;
  }
  return known === 1;
}

/** Marks NFKC composes into the character before them, half-width ﾞﾟ included. */
const COMBINING = /^[\p{M}\uff9e\uff9f\u1160-\u11ff]/u;

function joinsPrevious(text: string, index: number): boolean {
  if (index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 0x300) return false;
  if (code >= 0x3000 && code <= 0xd7ff) return code === 0x3099 || code === 0x309a;
  return COMBINING.test(text.slice(index, index + 2));
}

function grow(array: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(Math.max(size, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * Text as the staff lists' search compares it, both what is searched for and what is searched:
 * normalize()'s form (full width ≡ half width, case, hiragana ≡ katakana) with Latin accents removed
 * (Müller ≡ muller; the kana's voicing marks stay) and no whitespace at all (鈴木, a full-width space, 一郎 ≡ 鈴木一郎).
 */
export function foldForMatching(text: string): string {
  return normalize(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .replace(/\s+/gu, '');
}
