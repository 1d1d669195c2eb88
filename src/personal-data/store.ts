import type { Kysely } from 'kysely';
import { atAddress } from '../db/address.ts';
import type { Tables } from '../db/schema.ts';
import type { Reservation } from '../reservations/store.ts';
import type { Subscription } from '../subscriptions/store.ts';

// The SQL of a customer's data by address. Every look-up compares the canonical form of the
// stored address (db/address.ts), the expression of migration 018's indexes, so it reads those and
// never scans a table; `key` is already canonical (text/canonical-address.ts).

export async function findReservationsAt(db: Kysely<Tables>, key: string): Promise<Reservation[]> {
  return db
    .selectFrom('reservations')
    .selectAll()
    .where(atAddress('email', key))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findSubscriptionsAt(db: Kysely<Tables>, key: string): Promise<Subscription[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where(atAddress('email', key))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes the records at the address; what they were, for what depends on them (seats, messages). */
export async function deleteRecordsAt(
  db: Kysely<Tables>,
  key: string,
): Promise<{ reservations: Reservation[]; subscriptions: Subscription[] }> {
  const reservations = await db.deleteFrom('reservations').where(atAddress('email', key)).returningAll().execute();
  const subscriptions = await db.deleteFrom('subscriptions').where(atAddress('email', key)).returningAll().execute();
  return { reservations, subscriptions };
}

/** Forgets the address's per-campaign seat counts; run once its reservations are gone (and their seats given back). */
export async function deleteCampaignCountsAt(db: Kysely<Tables>, key: string): Promise<void> {
  // A campaign counts seats under the canonical address already (preorders/seats.ts).
  await db.deleteFrom('preorder_customers').where('email', '=', key).execute();
}
