/**
 * The length of a text as every limit of the API counts it, in characters (code points): an emoji
 * or a kanji outside the Basic Multilingual Plane is one, not the two UTF-16 units `length` counts.
 */
export function codePointLength(text: string): number {
  return [...text].length;
}
