/**
 * Whether text reads as a link a mail client or chat would make clickable, or a reader would type:
 * judged after NFKC with `。` (and `．` `｡`, which NFKC folds) read as `.`, so full-width disguises
 * read as what they show. A host (`evil.example`, `bit.ly`, an IPv4 address; not `J. R. Smith` or
 * `Dr. Ken Mori`: a dot before a space or a one-letter label); a path (`evil/login`, `/pay`, `//evil`);
 * a scheme (`https:evil.example`, `javascript:alert(1)`, or `://`, `www.`, `xn--` anywhere); markup
 * (`<a`, `</`, `<!`, `[text](…)`).
 */ export function readsAsLink(text: string): boolean {
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
