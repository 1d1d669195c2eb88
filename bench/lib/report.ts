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

/** The nearest-rank p-quantile of the values (0.99: p99; 1: the largest) to 0.1; 0 for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]! * 10) / 10;
}
