// Text from outside (a customer's name, page content, a search query) ends up in HTML, email
// headers and chat markup. These make it inert there: it can add neither an element nor a header,
// whatever characters it holds.

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML element content and quoted attribute values: markup in it is shown, never interpreted. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * Text on one line: every run of line breaks and other control characters (C0 and C1 controls,
 * DEL, U+2028, U+2029) becomes one space. A header value built from it cannot start another
 * header, a line of a text email cannot pretend to be two, and a name stays one line in a list.
 */
export function singleLine(text: string): string {
  // oxlint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
}
