import type { Database } from '../db/database.ts';
import { eraseMessagesAbout, eraseReputationOf, messagesAbout, suppressionsAbout } from '../messaging/about-records.ts';
import { forgetCustomerAt } from '../preorders/store.ts';
import { historyEntries } from '../records/history.ts';
import { historyOf, staffIdsOf } from '../records/history-store.ts';
import { eraseReservations } from '../reservations/erase.ts';
import { reservationsAt } from '../reservations/store.ts';
import { staffNames } from '../staff/store.ts';
import { eraseSubscriptionsAt } from '../subscriptions/erase.ts';
import { subscriptionsAt } from '../subscriptions/store.ts';
import { canonicalAddress } from '../text/canonical-address.ts';
import { personalReservation, personalSubscription } from './schemas.ts';

// A customer's request to see or erase what the shop holds about them: every reservation and restock
// subscription at their address, archived ones included, and every message about those or sent to
// the address. The address is compared in its canonical form (text/canonical-address.ts), so the
// records the customer made as taro+shop@ or t.a.r.o@gmail.com are theirs too.

/**
 * Everything held about the address: the records, the messages, and each record's history (its
 * status moves, memo edits, archiving and resends, with who made them: memos quote customers).
 */
export async function exportPersonalData(database: Database, addressKeySecret: string, address: string) {
  const key = canonicalAddress(address);
  const reservations = await reservationsAt(database.db, key);
  const subscriptions = await subscriptionsAt(database.db, key);
  const recordIds = [...reservations, ...subscriptions].map((r) => r.id);
  const messages = await messagesAbout(database.db, recordIds, key);
  const changes = await historyOf(database.db, recordIds);
  const names = await staffNames(database.db, staffIdsOf(changes));
  const suppressions = await suppressionsAbout(database.db, addressKeySecret, key);
  return {
    email: key,
    reservations: reservations.map(personalReservation),
    subscriptions: subscriptions.map(personalSubscription),
    messages,
    suppressions,
    // The messages are in `messages`: a record's history here holds its changes alone.
    history: recordIds.map((recordId) => ({
      recordId,
      entries: historyEntries(
        changes.filter((row) => row.record_id === recordId),
        [],
        names,
      ),
    })),
  };
}

/**
 * Deletes everything held about the address in one transaction: its reservations and restock
 * subscriptions as each module erases them (with their messages and history; reservations give their
 * seats back), the address's seat counts in preorder campaigns, and the emails sent to it about no
 * record left (a message still waiting is never sent: the dispatcher checks it is still queued); what
 * the email provider said of its emails, and its suppression kept only as a keyed hash of the address.
 */
export async function erasePersonalData(
  database: Database,
  addressKeySecret: string,
  address: string,
): Promise<{ reservations: number; subscriptions: number; messages: number; suppressions: number }> {
  const key = canonicalAddress(address);
  return database.db.transaction().execute(async (trx) => {
    const reservations = await eraseReservations(trx, { addressKey: key });
    const subscriptions = await eraseSubscriptionsAt(trx, key);
    await forgetCustomerAt(trx, key);
    const toAddress = await eraseMessagesAbout(trx, [], key);
    const suppressions = await eraseReputationOf(trx, addressKeySecret, key);
    return {
      reservations: reservations.reservations,
      subscriptions: subscriptions.subscriptions,
      messages: reservations.messages + subscriptions.messages + toAddress,
      suppressions,
    };
  });
}
