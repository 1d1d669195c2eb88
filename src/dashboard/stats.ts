import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import type { KeywordLogStore } from '../keyword-log/store.ts';
import { countUndelivered } from '../notifications/outbox-store.ts';
import { RESERVATION_STATUSES } from '../reservations/status.ts';
import { SUBSCRIPTION_STATUSES } from '../subscriptions/status.ts';
import { japanDays } from './japan-days.ts';
import { countByProduct, countByStatus, countZeroResultSearches, searchesPerJapanDay, topKeywords, type StatusCount } from './store.ts';

const WINDOW_MS = 30 * 86_400_000;
const TOP = 10;
const CHART_DAYS = 30;

export interface DashboardDeps {
  database: Database;
  catalog: Catalog;
  keywordLogStore: KeywordLogStore;
  /** Writes the searches still queued for the keyword log, so the figures include them. */
  flushKeywordLog: () => Promise<void>;
}

export interface RecordCounts {
  total: number;
  archived: number;
  byStatus: Record<string, number>;
}

export interface DashboardStats {
  reservations: RecordCounts;
  subscriptions: RecordCounts;
  products: { productSlug: string; name: string | null; reservations: number; pendingSubscriptions: number }[];
  searches: {
    total: number;
    zeroResults: number;
    topKeywords: { keyword: string; count: number }[];
    topZeroResultKeywords: { keyword: string; count: number }[];
    perDay: { date: string; count: number }[];
  };
  outbox: { pending: number; dead: number };
}

/**
 * The admin dashboard's figures (SPEC §4), every one an aggregate the store computes. Searches are
 * those of the last 30 days up to `now`; `perDay` charts the 30 Japan calendar days ending today.
 */
export async function dashboardStats(deps: DashboardDeps, now: Date = new Date()): Promise<DashboardStats> {
  const { db, dialect } = deps.database;
  await deps.flushKeywordLog();
  const window = { from: new Date(now.getTime() - WINDOW_MS).toISOString(), to: now.toISOString() };
  const chart = japanDays(now, CHART_DAYS);
  const [reservations, subscriptions, products, logWindow, zeroResults, top, topZero, perDay, outbox] = await Promise.all([
    countByStatus(db, 'reservations'),
    countByStatus(db, 'subscriptions'),
    countByProduct(db),
    deps.keywordLogStore.read({ ...window, limit: 0 }),
    countZeroResultSearches(db, window),
    topKeywords(db, window, { limit: TOP, zeroResultsOnly: false }),
    topKeywords(db, window, { limit: TOP, zeroResultsOnly: true }),
    searchesPerJapanDay(db, dialect, chart.firstHour),
    countUndelivered(db),
  ]);
  const perDate = new Map(perDay.map((day) => [day.date, day.count]));
  return {
    reservations: recordCounts(RESERVATION_STATUSES, reservations),
    subscriptions: recordCounts(SUBSCRIPTION_STATUSES, subscriptions),
    products: products
      .map((p) => ({ productSlug: p.productSlug, name: deps.catalog.bySlug.get(p.productSlug)?.name ?? null, reservations: p.reservations, pendingSubscriptions: p.pendingSubscriptions }))
      .sort((a, b) => b.reservations + b.pendingSubscriptions - (a.reservations + a.pendingSubscriptions) || (a.productSlug < b.productSlug ? -1 : 1)),
    searches: {
      total: logWindow.total,
      zeroResults,
      topKeywords: top,
      topZeroResultKeywords: topZero,
      perDay: chart.dates.map((date) => ({ date, count: perDate.get(date) ?? 0 })),
    },
    outbox,
  };
}

/** Every known status appears (0 when none); a legacy status found in the store is added. */
function recordCounts(statuses: readonly string[], rows: StatusCount[]): RecordCounts {
  const byStatus: Record<string, number> = Object.fromEntries(statuses.map((status) => [status, 0]));
  for (const row of rows) byStatus[row.status] = row.total;
  return {
    total: rows.reduce((sum, row) => sum + row.total, 0),
    archived: rows.reduce((sum, row) => sum + row.archived, 0),
    byStatus,
  };
}
