import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import { eraseMessagesAbout } from '../messaging/about-records.ts';
import { deleteHistoryOf } from '../records/history-store.ts';
import { deleteSubscriptionsAt } from './store.ts';

/**
 * Erases every restock subscription at a canonical address inside the caller's transaction: the
 * rows, every message about them and their history, found from the rows deleted (as
 * reservations/erase.ts does). How many of each.
 */
export async function eraseSubscriptionsAt(trx: Kysely<Tables>, addressKey: string): Promise<{ subscriptions: number; messages: number }> {
  const ids = (await deleteSubscriptionsAt(trx, addressKey)).map((subscription) => subscription.id);
  const messages = await eraseMessagesAbout(trx, ids);
  await deleteHistoryOf(trx, ids);
  return { subscriptions: ids.length, messages };
}
