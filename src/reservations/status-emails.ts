import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.ts';
import type { Tables } from '../db/schema.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import { reservationEmailFacts } from '../messaging/templates/facts.ts';
import { statusEmailKind } from '../messaging/kinds.ts';
import { currentVersion } from '../messaging/templates/store.ts';
import type { OutboxEntry } from '../messaging/outbox/message.ts';
import { reservationCancelledChatMessage } from '../messaging/chat/reservation-notices.ts';
import { productPageUrl } from '../messaging/links.ts';
import { manageUrl } from '../messaging/links.ts';
import type { Reservation } from './store.ts';

/** What a reservation's emails need besides the reservation: the product and the links' base and key. */
export interface ReservationEmailDeps {
  catalog: Catalog;
  /** PUBLIC_BASE_URL, for the links in the emails. */
  publicBaseUrl: string;
  /** Signs the customer's page links (UNSUBSCRIBE_SECRET). */
  manageSecret: string;
}

/**
 * The customer's email about a move from `from` to the reservation's status, when the move calls
 * for one and its template is enabled; read in the move's transaction, so the email is queued
 * exactly when the move is made. Each move has its own idempotency key: a move back and forth is two
 * emails, while a repeated request finds the status already set, is no move, and sends nothing.
 */
export async function statusEmail(
  trx: Kysely<Tables>,
  deps: ReservationEmailDeps,
  reservation: Reservation,
  from: string,
  now: Date,
): Promise<OutboxEntry | undefined> {
  const kind = statusEmailKind(reservation.status);
  if (!kind || from === reservation.status) return undefined;
  const template = await currentVersion(trx, kind);
  if (!template?.enabled) return undefined;
  return {
    idempotencyKey: `reservation/${reservation.id}/${kind}/${uuidV7(now.getTime())}`,
    recordId: reservation.id,
    queuedAt: now.toISOString(),
    message: {
      channel: 'email',
      to: reservation.email,
      email: { template: kind, version: template.version, facts: reservationFacts(deps, reservation) },
    },
  };
}

/** What the reservation's emails state; a product gone from the catalog is named by its slug, its price unknown. */
export function reservationFacts(deps: ReservationEmailDeps, reservation: Reservation) {
  const product = deps.catalog.bySlug.get(reservation.product_slug) ?? { name: reservation.product_slug, price: null, detailHref: null };
  return reservationEmailFacts({ id: reservation.id, name: reservation.name, createdAt: reservation.created_at }, product, {
    productUrl: productPageUrl(deps.publicBaseUrl, product),
    manageUrl: manageUrl(deps.publicBaseUrl, deps.manageSecret, reservation.id),
  });
}

/** The shop's chat notice that a customer cancelled on their own page, to the reservation webhook. */
export function customerCancelChat(reservation: Reservation, deps: Pick<ReservationEmailDeps, 'catalog'>, now: Date): OutboxEntry {
  const productName = deps.catalog.bySlug.get(reservation.product_slug)?.name ?? reservation.product_slug;
  return {
    idempotencyKey: `reservation/${reservation.id}/customer-cancel-chat/${uuidV7(now.getTime())}`,
    recordId: reservation.id,
    queuedAt: now.toISOString(),
    message: {
      channel: 'chat',
      webhook: 'reservation',
      content: reservationCancelledChatMessage(reservation, productName, now.toISOString()),
    },
  };
}
