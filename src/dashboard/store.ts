import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';

// The dashboard's SQL: every figure is an aggregate computed by the store; no record is loaded.

export interface StatusCount {
  status: string;
  total: number;
  archived: number;
}

/** Records of a kind per status, all of them and the archived ones (`count(archived_at)` counts those set). */
export async function countByStatus(db: Kysely<Tables>, table: 'reservations' | 'subscriptions'): Promise<StatusCount[]> {
  // Both tables have these columns; the union type would make Kysely ask for what they share.
  const rows = await (db as Kysely<Pick<Tables, 'reservations'>>)
    .selectFrom(table as 'reservations')
    .select((eb) => ['status', eb.fn.countAll<number>().as('total'), eb.fn.count<number>('archived_at').as('archived')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, total: Number(row.total), archived: Number(row.archived) }));
}

export interface ProductCount {
  productSlug: string;
  reservations: number;
  reservationsNotCancelled: number;
  pendingSubscriptions: number;
}

/**
 * Per product with any reservation or subscription: its reservations (active and archived), those
 * of them not cancelled (as a campaign counts its seats taken), and its active pending
 * subscriptions (those the next send would notify).
 */
export async function countByProduct(db: Kysely<Tables>): Promise<ProductCount[]> {
  const [reservations, subscriptions] = await Promise.all([
    db
      .selectFrom('reservations')
      .select((eb) => [
        'product_slug',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>(eb.case().when('status', '<>', 'cancelled').then(1).else(0).end()).as('notCancelled'),
      ])
      .groupBy('product_slug')
      .execute(),
    db
      .selectFrom('subscriptions')
      .select((eb) => [
        'product_slug',
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(eb.and([eb('status', '=', 'pending'), eb('archived_at', 'is', null)]))
              .then(1)
              .else(0)
              .end(),
          )
          .as('pending'),
      ])
      .groupBy('product_slug')
      .execute(),
  ]);
  const products = new Map<string, ProductCount>();
  const entry = (productSlug: string) => {
    let found = products.get(productSlug);
    if (!found) products.set(productSlug, (found = { productSlug, reservations: 0, reservationsNotCancelled: 0, pendingSubscriptions: 0 }));
    return found;
  };
  for (const row of reservations) {
    const product = entry(row.product_slug);
    product.reservations = Number(row.count);
    product.reservationsNotCancelled = Number(row.notCancelled);
  }
  for (const row of subscriptions) entry(row.product_slug).pendingSubscriptions = Number(row.pending);
  return [...products.values()];
}

/**
 * Searches per Japan calendar day (`YYYY-MM-DD`) from the hour `fromHour` (`2026-03-01T15`, a Japan
 * midnight) on, summed from the keyword log's hourly counts (migration 003): Japan has no daylight
 * saving time, so every Japan day is 24 whole UTC hours. Days without searches are absent.
 */
export async function searchesPerJapanDay(
  db: Kysely<Tables>,
  dialect: Dialect,
  fromHour: string,
): Promise<{ date: string; count: number }[]> {
  const day =
    dialect === 'sqlite'
      ? sql<string>`date(hour || ':00:00', '+9 hours')`
      : sql<string>`to_char((hour || ':00:00+00')::timestamptz at time zone 'Asia/Tokyo', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('keyword_log_hours')
    .select((eb) => [day.as('date'), eb.fn.sum<number>('entries').as('count')])
    .where('hour', '>=', fromHour)
    .groupBy(day)
    .execute();
  return rows.map((row) => ({ date: row.date, count: Number(row.count) }));
}
