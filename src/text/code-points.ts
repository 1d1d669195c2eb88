/**
 * The length of a text as the contract counts it (SPEC: "lengths are counted in characters (code
 * points)"): an emoji or a kanji outside the Basic Multilingual Plane is one, not the two UTF-16
 * units `length` counts.
 */
export function codePointLength(text: string): number {
  return [...text].length;
}
