/**
 * Whether text reads as a link: something a mail client or a chat would make clickable, or a reader
 * would type into a browser. Judged after NFKC, with the ideographic full stops (`。`, and `．`
 * `｡`, which NFKC makes `.` and `。`) read as `.`, so full-width disguises read as what they show:
 * - a host: two labels joined by a dot, the one after it at least two letters or digits
 *   (`evil.example`, `bit.ly`, `example．com`, `xn--80ak6aa92e.com`), or an IPv4 address; a dot
 *   followed by a space or a one-letter label is not (`J. R. Smith`, `J.R. Smith`, `Dr. Ken Mori`);
 * - a path: a slash joined to a word or a dot (`evil/login`, `/pay`, `../x`), or two (`//evil`);
 * - a scheme: letters and a colon directly before text (`https:evil.example`, `javascript:alert(1)`),
 *   or `://`, `www.`, `xn--` anywhere;
 * - markup: a tag (`<a`, `</`, `<!`) or a Markdown link (`[text](…)`).
 */
export function readsAsLink(text: string): boolean {
  const read = text.normalize('NFKC').replaceAll('。', '.');
  return LINK_SHAPES.some((shape) => shape.test(read));
}

const LINK_SHAPES = [
  /[\p{L}\p{N}_-]\.[\p{L}\p{N}-]*[\p{L}\p{N}]{2}/u,
  /(?<!\d)\d{1,3}(?:\.\d{1,3}){3}(?!\d)/,
  /[\p{L}\p{N}._~-]\/|\/[\p{L}\p{N}._~-]|\/\//u,
  /(?<![\p{L}\p{N}])[a-z][a-z\d+.-]*:[^\s]/iu,
  /:\/\/|www\.|xn--/i,
  /<[\p{L}/!?]|\[[^\]]*\]\s*\(/u,
];
