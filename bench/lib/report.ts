/** Prints rows as an aligned plain-text table. */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const cell = (value: string | number) => (typeof value === 'number' ? formatNumber(value) : value);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => cell(row[c] ?? ''))));
}

export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A target check line: `PASS`/`FAIL` with the measured value and the target. */
export function verdict(label: string, ok: boolean, measured: string, target: string): string {
  return `${ok ? 'PASS' : 'FAIL'}  ${label}: ${measured} (target ${target})`;
}
