const DAY_MS = 86_400_000;
/** Japan Standard Time is UTC+9 all year (no daylight saving time). */
const JST_OFFSET_MS = 9 * 3_600_000;

/**
 * The `count` Japan calendar days that end with the day of `now`, oldest first: each as its date
 * (`YYYY-MM-DD`), and the UTC hour (`YYYY-MM-DDTHH`, as the keyword log's hourly counts are keyed)
 * at which the first of them begins.
 */
export function japanDays(now: Date, count: number): { dates: string[]; firstHour: string } {
  const today = Math.floor((now.getTime() + JST_OFFSET_MS) / DAY_MS);
  const first = today - (count - 1);
  const dates = Array.from({ length: count }, (_, i) => new Date((first + i) * DAY_MS).toISOString().slice(0, 10));
  return { dates, firstHour: new Date(first * DAY_MS - JST_OFFSET_MS).toISOString().slice(0, 13) };
}
