// How a customer in Japan reads a price and a time: in the emails, the shop's chat notices and the customer's pages.

const JST = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

// Intl formatting is slow next to everything else a reservation does (bench/reservations.ts), and
// its answer changes once a minute: the last one is kept.
let lastMinute = { start: NaN, text: '' };

/** `2026年11月22日 09:18` in Japan time. */
export function formatJapanTime(iso: string): string {
  const time = Date.parse(iso);
  const start = time - (time % 60_000);
  if (start !== lastMinute.start) lastMinute = { start, text: JST.format(time) };
  return lastMinute.text;
}

const YEN = new Intl.NumberFormat('ja-JP');

/** `¥42,000`, or that the price is not set yet. */
export function formatYen(price: number | null): string {
  return price === null ? '価格未定' : `¥${YEN.format(price)}`;
}
