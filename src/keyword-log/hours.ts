// The keyword log keeps counts per hour beside its entries (migrations 003 and 004), so a window of
// it is read as the whole hours inside it, from the counts, plus the partial hours at its two ends,
// from the entries themselves.

const HOUR_MS = 3_600_000;

/** The hour bucket of an ISO timestamp: its first 13 characters, `2026-03-01T14`. */
export const hourOf = (timestamp: string) => timestamp.slice(0, 13);

/** Entries in [from, to), or in [from, to] when `includeTo`. */
export interface EntryRange {
  from: string;
  to: string;
  includeTo: boolean;
}

export interface SplitWindow {
  /** The whole hours inside the window as hour buckets, [from, to); absent when there is none. */
  hours?: { from: string; to: string };
  /** What the whole hours leave of the window, to be read from the entries. */
  edges: EntryRange[];
}

/** Splits the window [from, to] (ISO timestamps, both ends inclusive). */
export function splitWindow(from: string, to: string): SplitWindow {
  const firstWholeHour = new Date(Math.ceil(Date.parse(from) / HOUR_MS) * HOUR_MS).toISOString();
  const lastHourStart = new Date(Math.floor(Date.parse(to) / HOUR_MS) * HOUR_MS).toISOString();
  if (firstWholeHour >= lastHourStart) return { edges: [{ from, to, includeTo: true }] };
  return {
    hours: { from: hourOf(firstWholeHour), to: hourOf(lastHourStart) },
    edges: [
      { from, to: firstWholeHour, includeTo: false },
      { from: lastHourStart, to, includeTo: true },
    ],
  };
}

/**
 * Splits "everything logged since `from`": the partial hour it starts in, then every hour bucket
 * from the next one on (the current hour's count included, as nothing is logged ahead of now).
 */
export function splitSince(from: string): { head: EntryRange; hoursFrom: string } {
  const firstWholeHour = new Date(Math.ceil(Date.parse(from) / HOUR_MS) * HOUR_MS).toISOString();
  return { head: { from, to: firstWholeHour, includeTo: false }, hoursFrom: hourOf(firstWholeHour) };
}
