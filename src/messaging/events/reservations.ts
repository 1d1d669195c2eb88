import type { Kysely, Selectable } from 'kysely';
import type { Product } from '../../catalog/product.ts';
import type { ReservationRow, Tables } from '../../db/schema.ts';
import { uuidV7 } from '../../db/time-ordered-id.ts';
import { campaignNotes } from '../../preorders/store.ts';
import { canonicalAddress } from '../../text/canonical-address.ts';
import { reservationCancelledChatMessage, reservationChatMessage } from '../chat/reservation-notices.ts';
import { statusEmailKind } from '../kinds.ts';
import { consoleRecordUrl, manageUrl, productPageUrl } from '../links.ts';
import type { MessagingSettings } from './settings.ts';
import type { OutboxEntry } from '../outbox/message.ts';
import { reservationEmailFacts, type ReservationEmailFacts } from '../templates/facts.ts';
import { CAP_REASON, emailsQueuedTo } from '../outbox/store.ts';
import { currentVersion } from '../templates/store.ts';

// The messages a reservation's events queue, with their idempotency keys (stable for their cause:
// a cause written twice queues once) and what they state.

/** A reservation as its messages name it: a row of the reservations table. */
export type ReservationRecord = Pick<Selectable<ReservationRow>, 'id' | 'number' | 'name' | 'email' | 'product_slug' | 'created_at'> & {
  /** Its preorder campaign, whose words its emails carry; null (or absent) without one. */
  preorder_id?: string | null;
};

/** What the reservation's campaign tells its customers, read in the caller's transaction (nothing read without one). */
async function campaignOf(trx: Kysely<Tables>, reservation: ReservationRecord): Promise<Campaign | undefined> {
  return reservation.preorder_id ? (await campaignNotes(trx, [reservation.preorder_id])).get(reservation.preorder_id) : undefined;
}

/** What a reservation's campaign tells its customers. */
export type Campaign = { shipsIn: string | null; note: string | null };

/**
 * A reservation just taken: the customer's confirmation email and the shop's chat notice, both due
 * when it was taken. A stranger can make the shop send a confirmation to any address, so one address
 * gets at most EMAILS_PER_ADDRESS_PER_DAY of them in 24 hours (counted in its canonical form, so
 * +tags and gmail's dots make no new mailbox); past that the email is queued `skipped` with
 * CAP_REASON, so staff see why in the message log, and the reservation is taken all the same.
 */
export async function reservationTakenMessages(
  trx: Kysely<Tables>,
  settings: MessagingSettings,
  reservation: ReservationRecord,
  product: Product,
  campaign: Campaign | undefined,
): Promise<OutboxEntry[]> {
  const { id, email, created_at: queuedAt } = reservation;
  const capped = await pastDailyCap(trx, settings.emailsPerAddressPerDay, email, queuedAt);
  return [
    {
      idempotencyKey: `reservation/${id}/${CONFIRMATION}`,
      recordId: id,
      queuedAt,
      message: {
        channel: 'email',
        to: email,
        email: { template: 'reservation-received', facts: reservationFacts(settings, reservation, product, campaign) },
      },
      ...(capped ? { skippedBecause: CAP_REASON } : {}),
    },
    {
      idempotencyKey: `reservation/${id}/chat`,
      recordId: id,
      queuedAt,
      message: {
        channel: 'chat',
        webhook: 'reservation',
        content: reservationChatMessage(
          { id, number: reservation.number, name: reservation.name, email, createdAt: queuedAt },
          product,
          consoleRecordUrl(settings.publicBaseUrl, id),
        ),
      },
    },
  ];
}

const CONFIRMATION = 'confirmation-email';
const DAY_MS = 86_400_000;

/** Whether `address` has had `perDay` confirmations in the 24 hours up to `at` (0: no cap). */
async function pastDailyCap(trx: Kysely<Tables>, perDay: number, address: string, at: string): Promise<boolean> {
  if (perDay === 0) return false;
  const since = new Date(Date.parse(at) - DAY_MS).toISOString();
  return (await emailsQueuedTo(trx, canonicalAddress(address), `reservation/%/${CONFIRMATION}`, since)) >= perDay;
}

/**
 * The customer's email about a move from `from` to the reservation's status, when the move calls
 * for one and its template is enabled; read in the move's transaction, so the email is queued
 * exactly when the move is made, with the version current then. Each move has its own idempotency
 * key: a move back and forth is two emails, while a repeated request finds the status already
 * set, is no move, and sends nothing.
 */
export async function statusEmail(
  trx: Kysely<Tables>,
  settings: MessagingSettings,
  reservation: ReservationRecord & { status: string },
  from: string,
  at: Date,
): Promise<OutboxEntry | undefined> {
  const kind = statusEmailKind(reservation.status);
  if (!kind || from === reservation.status) return undefined;
  const template = await currentVersion(trx, kind);
  if (!template?.enabled) return undefined;
  const campaign = await campaignOf(trx, reservation);
  // A product gone from the catalog is named by its slug, its price unknown.
  const product = settings.catalog.bySlug.get(reservation.product_slug) ?? {
    name: reservation.product_slug,
    price: null,
    detailHref: null,
  };
  return {
    idempotencyKey: `reservation/${reservation.id}/${kind}/${uuidV7(at.getTime())}`,
    recordId: reservation.id,
    queuedAt: at.toISOString(),
    message: {
      channel: 'email',
      to: reservation.email,
      email: { template: kind, version: template.version, facts: reservationFacts(settings, reservation, product, campaign) },
    },
  };
}

/** The shop's chat notice that a customer cancelled on their own page, to the reservation webhook; `reopened`: see seatReopened. */
export function customerCancelNotice(
  settings: MessagingSettings,
  reservation: ReservationRecord,
  at: Date,
  reopened: boolean,
): OutboxEntry {
  const productName = settings.catalog.bySlug.get(reservation.product_slug)?.name ?? reservation.product_slug;
  return {
    idempotencyKey: `reservation/${reservation.id}/customer-cancel-chat/${uuidV7(at.getTime())}`,
    recordId: reservation.id,
    queuedAt: at.toISOString(),
    message: {
      channel: 'chat',
      webhook: 'reservation',
      content: reservationCancelledChatMessage(
        reservation,
        productName,
        at.toISOString(),
        consoleRecordUrl(settings.publicBaseUrl, reservation.id),
        reopened,
      ),
    },
  };
}

/** What every email about a reservation states: the reservation, the product as it is today, the links, and its campaign's words. */
function reservationFacts(
  settings: MessagingSettings,
  reservation: ReservationRecord,
  product: Pick<Product, 'name' | 'price' | 'detailHref'>,
  campaign: Campaign | undefined,
): ReservationEmailFacts {
  return reservationEmailFacts(
    { id: reservation.id, number: reservation.number, name: reservation.name, createdAt: reservation.created_at },
    product,
    {
      productUrl: productPageUrl(settings.storefrontUrl, product),
      manageUrl: manageUrl(settings.publicBaseUrl, settings.linkSecret, reservation.id),
    },
    campaign,
  );
}
