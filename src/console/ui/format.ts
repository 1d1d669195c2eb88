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

// Japan keeps no summer time: its offset is always +09:00.
const JAPAN_OFFSET_MS = 9 * 3_600_000;

/** An ISO time as a `datetime-local` value in Japan time (`2026-12-01T10:00`); '' for none. */
export function toJapanInput(iso: string | null): string {
  return iso ? new Date(Date.parse(iso) + JAPAN_OFFSET_MS).toISOString().slice(0, 16) : '';
}

/** The day in Japan at `time`: `2026-11-26`. */
export function japanDay(time: Date): string {
  return new Date(time.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 10);
}

/** A `datetime-local` value read as Japan time, with its offset (`2026-12-01T10:00:00+09:00`); null for ''. */
export function fromJapanInput(value: string): string | null {
  return value ? `${value.length === 16 ? `${value}:00` : value}+09:00` : null;
}
