// How a customer in Japan reads a price and a time: in the emails, the shop's chat notices and the customer's pages.

// Each formatter is made when first used: making one loads ICU's data for its locale (and for the
// time zone), which took a tenth of a start that needs neither until a message is written.
let jst: Intl.DateTimeFormat | undefined;
let yen: Intl.NumberFormat | undefined;

// Intl formatting is slow next to everything else a reservation does (bench/reservations.ts), and
// its answer changes once a minute: the last one is kept.
let lastMinute = { start: NaN, text: '' };

/** `2026年11月22日 09:18` in Japan time. */
export function formatJapanTime(iso: string): string {
  const time = Date.parse(iso);
  const start = time - (time % 60_000);
  if (start !== lastMinute.start) {
    jst ??= new Intl.DateTimeFormat('ja-JP', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    lastMinute = { start, text: jst.format(time) };
  }
  return lastMinute.text;
}

/** `¥42,000`, or that the price is not set yet. */
export function formatYen(price: number | null): string {
  if (price === null) return '価格未定';
  yen ??= new Intl.NumberFormat('ja-JP');
  return `¥${yen.format(price)}`;
}
