import type { Database } from '../db/database.ts';
import { releaseSeat } from '../preorders/seats.ts';
import { historyEntries } from '../records/history.ts';
import { deleteHistoryOf, historyOf, staffIdsOf } from '../records/history-store.ts';
import { staffNames } from '../staff/store.ts';
import { canonicalAddress } from '../text/canonical-address.ts';
import { personalReservation, personalSubscription } from './schemas.ts';
import { eraseMessagesAbout, messagesAbout } from '../messaging/about-records.ts';
import { deleteCampaignCountsAt, deleteRecordsAt, findReservationsAt, findSubscriptionsAt } from './store.ts';

// A customer's request to see or erase what the shop holds about them: every reservation and restock
// subscription at their address, archived ones included, and every message about those or sent to
// the address. The address is compared in its canonical form (text/canonical-address.ts), so the
// records the customer made as taro+shop@ or t.a.r.o@gmail.com are theirs too.

/**
 * Everything held about the address: the records, the messages, and each record's history (its
 * status moves, memo edits, archiving and resends, with who made them: memos quote customers).
 */
export async function exportPersonalData(database: Database, address: string) {
  const key = canonicalAddress(address);
  const reservations = await findReservationsAt(database.db, key);
  const subscriptions = await findSubscriptionsAt(database.db, key);
  const recordIds = [...reservations, ...subscriptions].map((r) => r.id);
  const messages = await messagesAbout(database.db, recordIds, key);
  const changes = await historyOf(database.db, recordIds);
  const names = await staffNames(database.db, staffIdsOf(changes));
  return {
    email: key,
    reservations: reservations.map(personalReservation),
    subscriptions: subscriptions.map(personalSubscription),
    messages,
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
 * Deletes everything held about the address in one transaction: the records, the messages about
 * them or to the address (sent or not: they quote the name and address; one still waiting is never
 * sent, as the dispatcher checks a message is still queued before it sends it), the records'
 * history (memos quote customers), and the address's seat counts in preorder campaigns, whose
 * seats the erased reservations give back. The records are deleted first and their messages found
 * from what was deleted, so a reservation taken at the same moment is either erased with its
 * messages or left whole.
 */
export async function erasePersonalData(
  database: Database,
  address: string,
): Promise<{ reservations: number; subscriptions: number; messages: number }> {
  const key = canonicalAddress(address);
  return database.db.transaction().execute(async (trx) => {
    const { reservations, subscriptions } = await deleteRecordsAt(trx, key);
    for (const reservation of reservations) if (reservation.status !== 'cancelled') await releaseSeat(trx, reservation);
    await deleteCampaignCountsAt(trx, key);
    const recordIds = [...reservations, ...subscriptions].map((r) => r.id);
    const messages = await eraseMessagesAbout(trx, recordIds, key);
    await deleteHistoryOf(trx, recordIds);
    return { reservations: reservations.length, subscriptions: subscriptions.length, messages };
  });
}
