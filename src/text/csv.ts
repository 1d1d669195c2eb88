// CSV for a spreadsheet (RFC 4180): fields joined by commas, lines ended by CRLF, a field quoted
// when it holds a comma, a quote, CR or LF, with its quotes doubled. Excel opens a UTF-8 file in
// Japanese only when it starts with a byte-order mark (CSV_BOM).
//
// A spreadsheet runs a cell as a formula when it starts with `=`, `+`, `-` or `@`, also after
// spaces or invisible characters, in its full-width forms (`＝`), and LibreOffice, set to split on
// `;` or tabs, runs what follows a `;=` or a tab and `=` inside a cell. Such a cell gets a leading
// `'`, which spreadsheets show as text and hide, so a customer's name or a memo can never run in a
// colleague's spreadsheet (formulaLike says which).

export const CSV_BOM = '\ufeff';

const NEEDS_QUOTES = /[",\r\n]/;

/** Whitespace and zero-width characters a spreadsheet skips before it looks for a formula. */
const LEADING_BLANKS = /^[\s\u200b-\u200d\u2060\ufeff]+/u;
const FORMULA_START = /^[=+\-@]/;
/** A formula starting after a separator: `;=`, `,=`, or a tab then `=`. */
const FORMULA_INSIDE = /[;,\t]=/;
/** A tab or CR at the very start, which OWASP also guards. */
const CONTROL_START = /^[\t\r]/;

/**
 * Whether a spreadsheet could run `value` as a formula: after NFKC (`＝` is `=`) and with leading
 * whitespace and zero-width characters removed it starts with `=`, `+`, `-` or `@`, or it holds
 * `;=`, `,=` or a tab followed by `=`, or it starts with a tab or CR.
 */
export function formulaLike(value: string): boolean {
  if (CONTROL_START.test(value)) return true;
  const normalized = value.normalize('NFKC');
  return FORMULA_START.test(normalized.replace(LEADING_BLANKS, '')) || FORMULA_INSIDE.test(normalized);
}

/** One field as written in a line: safe from formula injection, quoted when it must be. */
export function csvField(value: string): string {
  const text = formulaLike(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF included. */
export function csvLine(values: string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
