/**
 * Whether a string can be stored and looked up on both dialects: PostgreSQL's text cannot hold
 * U+0000, and a query naming it fails outright. Such input is refused as invalid rather than let
 * through to a 500.
 */
export function isStorable(text: string): boolean {
  return !text.includes('\u0000');
}
