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
 * `normalize(text)` with the map back to `text`. Characters NFKC leaves alone or maps one to one
 * (ASCII, full-width ASCII, kana, ideographs, common Japanese punctuation) are taken in runs; anything
 * else is normalised a cluster at a time (a character and the marks that compose with it), which
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
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (isOneToOne(code) && !joinsPrevious(text, i + 1)) {
      start[size] = i;
      end[size++] = i + 1;
      i++;
      continue;
    }
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
  return { text: parts.join(''), start: start.subarray(0, size), end: end.subarray(0, size) };
}

/** NFKC leaves these alone or maps them to one ASCII character, and lower-casing keeps their length. */
function isOneToOne(code: number): boolean {
  return (
    code < 0x80 ||
    (code >= 0x4e00 && code <= 0x9fff) || // ideographs
    (code >= 0x30a1 && code <= 0x30fa) || // katakana
    (code >= 0x3041 && code <= 0x3096) || // hiragana
    (code >= 0xff01 && code <= 0xff5e) || // full-width ASCII
    (code >= 0x3001 && code <= 0x3003) || // 、。〃
    (code >= 0x3005 && code <= 0x3007) || // 々〆〇
    (code >= 0x3008 && code <= 0x3011) || // brackets 〈〉《》「」『』【】
    (code >= 0x30fc && code <= 0x30fe) || // ーヽヾ
    code === 0x309d ||
    code === 0x309e
  );
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
