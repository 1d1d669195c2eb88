const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const MIN_TIME = new Date(0).setUTCFullYear(0, 0, 1);
const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Reads an ISO 8601 date (`2026-03-01`) or date-time (`2026-03-01T09:30`, `…:15.250Z`,
 * `…+09:00`) as epoch milliseconds; undefined for anything else, impossible dates (February 30)
 * included, which `Date.parse` would quietly roll over. A date-time without an offset, and a bare
 * date, are UTC, whatever the server's time zone. Years 0000-9999 only, so the result always has a
 * `toISOString()` that sorts as text.
 */
export function parseIso8601(value: string): number | undefined {
  const match = ISO_8601.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const millisecond = match[7] ? Number(match[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth(year!, month!)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offset = offsetMinutes(match[8]);
  if (offset === undefined) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour, minute - offset, second, millisecond);
  const time = date.getTime();
  return time >= MIN_TIME && time <= MAX_TIME ? time : undefined;
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
