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

/**
 * What a spreadsheet skips, or a reader cannot see, before a formula: whitespace, the characters
 * Unicode says to show as nothing (zero-width ones, U+034F, the Hangul fillers U+115F, U+1160,
 * U+3164) and the blank braille cell U+2800.
 */
const BLANK = '[\\s\\p{Default_Ignorable_Code_Point}\\u2800]';
const LEADING_BLANKS = new RegExp(`^${BLANK}+`, 'u');
const FORMULA_START = /^[=+\-@]/;
/** A formula starting after a separator: `;=`, `,=`, or a tab then `=`, blanks between them too. */
const FORMULA_INSIDE = new RegExp(`[;,\\t]${BLANK}*=`, 'u');
/** A tab or CR at the very start, which OWASP also guards. */
const CONTROL_START = /^[\t\r]/;

/**
 * Whether a spreadsheet could run `value` as a formula: after NFKC (`＝` is `=`) and with leading
 * blanks (BLANK) removed it starts with `=`, `+`, `-` or `@`, or it holds `;`, `,` or a tab followed
 * by `=` (blanks between them or not), or it starts with a tab or CR.
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
