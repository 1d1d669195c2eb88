import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Dialect } from '../db/database.ts';
import { atAddress } from '../db/address.ts';
import type { SubscriptionRow, Tables } from '../db/schema.ts';

// The subscriptions table's own SQL (listing, locking and archiving, and the check of the rule below
// when one is unarchived, are in src/records/store.ts, shared with reservations).
// At most one active pending subscription per address and product: the partial unique index
// `subscriptions_one_pending` (migration 001) holds that rule, and these statements work with it.

export type Subscription = Selectable<SubscriptionRow>;

export type NewSubscriptionRow = Pick<Subscription, 'id' | 'email' | 'product_slug' | 'status' | 'created_at'>;

/** The index's condition, word for word, so both dialects see the upsert below target that index. */
const ONE_PENDING = sql.raw<SqlBool>("status = 'pending' and archived_at is null");

/**
 * Inserts the row unless it has an active pending twin (same address and product); whether it did.
 * A twin being written by a concurrent transaction is waited for, so of twenty identical signups
 * exactly one row is inserted, whichever transaction or connection each is in.
 */
export async function insertUnlessPending(db: Kysely<Tables>, row: NewSubscriptionRow): Promise<boolean> {
  const inserted = await db
    .insertInto('subscriptions')
    .values({ ...row, updated_at: row.created_at })
    .onConflict((conflict) => conflict.columns(['product_slug', 'email']).where(ONE_PENDING).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The id of the active pending subscription of this address and product, if there is one. */
export async function findPendingId(db: Kysely<Tables>, email: string, productSlug: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .select('id')
    .where(ONE_PENDING)
    .where('email', '=', email)
    .where('product_slug', '=', productSlug)
    .executeTakeFirst();
  return row?.id;
}

/** Whether another active pending subscription has this one's address and product. */
export async function hasPendingTwin(
  db: Kysely<Tables>,
  subscription: Pick<Subscription, 'id' | 'email' | 'product_slug'>,
): Promise<boolean> {
  const twin = await db
    .selectFrom('subscriptions')
    .select('id')
    .where(ONE_PENDING)
    .where('product_slug', '=', subscription.product_slug)
    .where('email', '=', subscription.email)
    .where('id', '<>', subscription.id)
    .executeTakeFirst();
  return twin !== undefined;
}

export async function updateSubscription(
  db: Kysely<Tables>,
  id: string,
  changes: Partial<Pick<Subscription, 'status' | 'notified_at'>> & Pick<Subscription, 'updated_at'>,
): Promise<Subscription> {
  return db.updateTable('subscriptions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The customer's own unsubscribe (src/subscriptions/unsubscribe.ts): the subscription becomes `unsubscribed`, changed at `at`. */
export async function markUnsubscribed(db: Kysely<Tables>, id: string, at: string): Promise<void> {
  await db.updateTable('subscriptions').set({ status: 'unsubscribed', updated_at: at }).where('id', '=', id).execute();
}

/** The signups of a customer (by canonical address) that are not unsubscribed, archived or not. */
export async function signupsStillSubscribed(
  db: Kysely<Tables>,
  address: string,
): Promise<Pick<Subscription, 'id' | 'status' | 'updated_at'>[]> {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'status', 'updated_at'])
    .where(atAddress('email', address))
    .where('status', '<>', 'unsubscribed')
    .execute();
}

/**
 * Marks up to `limit` active pending subscriptions of a product `notified` at `notifiedAt`, oldest
 * first, and returns them. On PostgreSQL the batch is locked as it is chosen, and rows a concurrent
 * send holds are skipped rather than waited for, so no subscription is notified by two sends. Two
 * statements, the second naming its ids: as `id IN (SELECT … FROM batch)`, PostgreSQL planned a
 * semi-join that compared every pending row with every chosen one, when statistics had not yet
 * caught up with a wave of signups (10,000 subscribers took 6 s instead of a fraction of one).
 */
export async function markPendingNotified(
  db: Kysely<Tables>,
  dialect: Dialect,
  productSlug: string,
  notifiedAt: string,
  limit: number,
): Promise<Pick<Subscription, 'id' | 'email'>[]> {
  let choose = db
    .selectFrom('subscriptions')
    .select('id')
    .where('product_slug', '=', productSlug)
    .where(ONE_PENDING)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit);
  if (dialect === 'postgres') choose = choose.forUpdate().skipLocked();
  const batch = await choose.execute();
  if (batch.length === 0) return [];
  return db
    .updateTable('subscriptions')
    .set({ status: 'notified', notified_at: notifiedAt, updated_at: notifiedAt })
    .where(
      'id',
      'in',
      batch.map((row) => row.id),
    )
    .where(ONE_PENDING)
    .returning(['id', 'email'])
    .execute();
}

/** The subscriptions at a canonical address, newest first (read through migration 018's index: db/address.ts). */
export async function subscriptionsAt(db: Kysely<Tables>, key: string): Promise<Subscription[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where(atAddress('email', key))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes the subscriptions at a canonical address; what they were. */
export async function deleteSubscriptionsAt(db: Kysely<Tables>, key: string): Promise<Subscription[]> {
  return db.deleteFrom('subscriptions').where(atAddress('email', key)).returningAll().execute();
}

/** Per product with any subscription: its active pending ones (those the next send would notify). */
export async function countPendingByProduct(db: Kysely<Tables>): Promise<{ productSlug: string; pending: number }[]> {
  const rows = await db
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
    .execute();
  return rows.map((row) => ({ productSlug: row.product_slug, pending: Number(row.pending) }));
}
