/**
 * Whether a string can be stored and looked up on both dialects: PostgreSQL's text cannot hold
 * U+0000, and a query naming it fails outright. Such input is refused as invalid rather than let
 * through to a 500.
 */
export function isStorable(text: string): boolean {
  return !text.includes('\u0000');
}

/**
 * Text that must be kept even so (a search keyword), made storable: each U+0000 becomes U+FFFD, as
 * a decoder shows a character it cannot represent.
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\ufffd');
}
