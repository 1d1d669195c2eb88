import type { Kysely } from 'kysely';
import type { Product } from '../catalog/product.ts';
import type { Tables } from '../db/schema.ts';
import { seatReopened } from '../preorders/campaign.ts';
import {
  customerCancelNotice,
  reservationTakenMessages,
  statusEmail,
  type Campaign,
  type ReservationRecord,
} from './events/reservations.ts';
import { restockAnnouncement, restockEmails, signupNotice, type SubscriptionRecord } from './events/restock.ts';
import type { MessagingSettings } from './events/settings.ts';
import { enqueueMessages } from './outbox/store.ts';

// What the domains tell messaging. Each call names something that happened and is made inside the
// transaction that writes it, so its messages are queued exactly when their cause is written, or
// not at all; the caller wakes the dispatcher once that transaction has committed. Which messages
// follow, their idempotency keys, facts and links are messaging's to decide (events/), never the
// caller's.

export interface Messaging {
  /**
   * A reservation was taken (of a preorder campaign, whose words its email carries): the customer's
   * confirmation email (skipped past the daily cap per address) and the shop's
   * chat notice.
   */
  reservationTaken(trx: Kysely<Tables>, reservation: ReservationRecord, product: Product, campaign: Campaign | undefined): Promise<void>;
  /**
   * A reservation's status moved from `from` to the status it holds now (`at`): the customer's email
   * about it when the move calls for one, its template is enabled and `notifyCustomer` is not false;
   * the shop's chat notice when the customer cancelled on their own page. Says whether the customer
   * was emailed.
   */
  reservationStatusMoved(
    trx: Kysely<Tables>,
    reservation: ReservationRecord & { status: string },
    move: { from: string; at: Date; notifyCustomer?: boolean; byCustomer?: boolean },
  ): Promise<{ customerEmailed: boolean }>;
  /** A restock subscription was made: the shop's chat notice of it. */
  signupTaken(trx: Kysely<Tables>, subscription: SubscriptionRecord, product: Product): Promise<void>;
  /** These subscriptions were told, at `at`, that the product is back: each one's restock email. */
  restockSent(trx: Kysely<Tables>, product: Product, subscriptions: Pick<SubscriptionRecord, 'id' | 'email'>[], at: string): Promise<void>;
  /** A restock send notified its last subscriber: the public announcement. */
  restockAnnounced(trx: Kysely<Tables>, product: Product, at: string): Promise<void>;
}

export function createMessaging(settings: MessagingSettings): Messaging {
  return {
    reservationTaken: async (trx, reservation, product, campaign) => {
      await enqueueMessages(trx, await reservationTakenMessages(trx, settings, reservation, product, campaign));
    },
    reservationStatusMoved: async (trx, reservation, move) => {
      const email = move.notifyCustomer === false ? undefined : await statusEmail(trx, settings, reservation, move.from, move.at);
      const notice = move.byCustomer
        ? customerCancelNotice(
            settings,
            reservation,
            move.at,
            await seatReopened(trx, { ...reservation, preorder_id: reservation.preorder_id ?? null }, move.at.toISOString()),
          )
        : undefined;
      await enqueueMessages(
        trx,
        [email, notice].filter((message) => message !== undefined),
      );
      return { customerEmailed: email !== undefined };
    },
    signupTaken: (trx, subscription, product) => enqueueMessages(trx, [signupNotice(settings, subscription, product)]),
    restockSent: (trx, product, subscriptions, at) => enqueueMessages(trx, restockEmails(settings, product, subscriptions, at)),
    restockAnnounced: (trx, product, at) => enqueueMessages(trx, [restockAnnouncement(settings, product, at)]),
  };
}
