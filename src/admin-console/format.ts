// Times are shown in Japan's time zone, whatever the device's setting: the shop runs on JST.

const DATE_TIME = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

const COUNT = new Intl.NumberFormat('ja-JP');

/** `2026/11/22 09:43`; '—' when there is no time. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : DATE_TIME.format(time);
}

export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** `2026-11-22` → `11/22`. */
export function formatDay(date: string): string {
  const [, month, day] = date.split('-');
  return `${Number(month)}/${Number(day)}`;
}
