// CSV for a spreadsheet (RFC 4180): fields joined by commas, lines ended by CRLF, a field quoted
// when it holds a comma, a quote, CR or LF, with its quotes doubled. Excel opens a UTF-8 file in
// Japanese only when it starts with a byte-order mark (CSV_BOM), and runs a cell that starts with
// `=`, `+`, `-` or `@` as a formula (also after a tab or CR, as OWASP notes): such a cell gets a
// leading `'`, which Excel shows as text and hides, so a customer's name can never run in a
// colleague's spreadsheet.

export const CSV_BOM = '\ufeff';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field as written in a line: safe from formula injection, quoted when it must be. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF included. */
export function csvLine(values: string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
