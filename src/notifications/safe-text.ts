// Customer-supplied text (a name, an address) ends up in email headers, HTML and chat markup. These
// make it inert there: it can add neither a header nor an element, whatever characters it holds.

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * Text on one line: every line break and other control character (CR, LF, NUL, U+2028, …) becomes a
 * space. A header value built from it cannot start another header, and a line of a text email
 * cannot pretend to be two.
 */
export function singleLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
}
