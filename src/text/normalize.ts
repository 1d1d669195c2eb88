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
