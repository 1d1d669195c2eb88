// How a customer in Japan reads a price and a time: in the emails, the shop's chat notices and the customer's pages.
//
// Written out here rather than by Intl.DateTimeFormat('ja-JP') and Intl.NumberFormat('ja-JP'), whose
// text these functions give character for character (japan-format.test.ts compares them): making
// either formatter reads ICU's data for every locale, which kept about 7 MB more of the process
// resident from the first email on, for two fixed patterns.

const JAPAN_OFFSET_MS = 9 * 60 * 60 * 1000;

/**
 * `2026年11月22日 09:18` in Japan time: UTC+9, which Japan has kept without daylight saving since
 * 1951 (every time the shop records is later). Seconds are dropped, not rounded.
 */
export function formatJapanTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new RangeError(`Invalid time value: ${iso}`);
  const japan = new Date(time + JAPAN_OFFSET_MS);
  const twoDigits = (n: number) => String(n).padStart(2, '0');
  return (
    `${japan.getUTCFullYear()}年${japan.getUTCMonth() + 1}月${japan.getUTCDate()}日 ` +
    `${twoDigits(japan.getUTCHours())}:${twoDigits(japan.getUTCMinutes())}`
  );
}

/** `¥42,000`, or that the price is not set yet. */
export function formatYen(price: number | null): string {
  if (price === null) return '価格未定';
  return `¥${groupedDecimal(price)}`;
}

/**
 * The number with at most 3 decimals (half away from zero, from its shortest decimal form, as ICU
 * rounds) and its whole part in groups of three digits.
 */
function groupedDecimal(value: number): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  // The shortest digits that read back as the number, the first of them at 10^exponent.
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  // The number in thousandths: its digits down to the third decimal, one more if the next is 5 or more.
  const kept = Number(exponent) + 4;
  let thousandths = kept > 0 ? BigInt(digits.slice(0, kept).padEnd(kept, '0')) : 0n;
  if (kept >= 0 && (digits[kept] ?? '0') >= '5') thousandths++;
  const text = thousandths.toString().padStart(4, '0');
  const decimals = text.slice(-3).replace(/0+$/, '');
  return `${sign}${text.slice(0, -3).replace(/\B(?=(\d{3})+$)/g, ',')}${decimals ? `.${decimals}` : ''}`;
}
