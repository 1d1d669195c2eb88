import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.ts';
import type { Product } from '../catalog/product.ts';
import type { Database } from '../db/database.ts';
import { groupCommit } from '../db/group-commit.ts';
import type { Tables } from '../db/schema.ts';
import { claimOf, type IdempotencyKey } from '../idempotency/claim.ts';
import { keyedWrites, type Keyed, type KeyedOutcome } from '../idempotency/keyed-writes.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { findPendingIds, insertUnlessPending, pairKey, type NewSubscriptionRow } from './store.ts';
import { subscriptionId } from './subscription-id.ts';

export interface SignupRequest {
  /** Lowercased. */
  email: string;
  productSlug: string;
}

/** A new subscription to write, and its product, which the shop's chat notice of it names. */
export interface SignupWrite {
  row: NewSubscriptionRow;
  product: Product;
}

/** The pending subscription a signup ended with; undefined when its twin changed before it could be read (try again). */
export type SignupOutcome = { subscriptionId: string; created: boolean } | undefined;

export type SignupResult = { ok: true; subscriptionId: string; created: boolean } | { ok: false; reason: 'unknownProduct' | 'keyReused' };

/** Writes a signup (with the key its request carried, if any); see signupWriter. */
export type WriteSignup = (signup: Keyed<SignupWrite>) => Promise<KeyedOutcome<SignupOutcome>>;

/** A twin that keeps changing between our insert and our read is an admin at work; three tries are plenty. */
const ATTEMPTS = 3;

/**
 * A restock signup. While the address has a pending subscription for the product, that one's id is
 * the answer and nothing is written; otherwise a new pending subscription and the restock chat
 * notice are written in one transaction. The unique index decides between concurrent signups, so
 * twenty identical requests at once still make one subscription and one notice. With an
 * Idempotency-Key a key first sent with this request answers the id it answered then; one first
 * sent with another is refused.
 */
export async function signUp(
  deps: { catalog: Catalog; write: WriteSignup; wakeDispatcher: () => void; idempotencySecret: string },
  request: SignupRequest,
  now: Date = new Date(),
  key?: IdempotencyKey,
): Promise<SignupResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknownProduct' };

  const claim = key && claimOf(deps.idempotencySecret, key, 'notify', [request.email, request.productSlug]);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const row: NewSubscriptionRow = {
      id: subscriptionId(now.getTime()),
      email: request.email,
      product_slug: product.slug,
      status: 'pending',
      created_at: now.toISOString(),
    };
    const outcome = await deps.write({ item: { row, product }, claim });
    if (outcome.kind === 'replay') return { ok: true, subscriptionId: outcome.recordId, created: false };
    if (outcome.kind === 'mismatch') return { ok: false, reason: 'keyReused' };
    if (!outcome.result) continue;
    if (outcome.result.created) deps.wakeDispatcher();
    return { ok: true, ...outcome.result };
  }
  throw new Error(`restock signup: the pending subscription changed during each of ${ATTEMPTS} attempts`);
}

/**
 * Writes a batch of signups in the caller's transaction (see groupCommit): inserts those without a
 * pending twin, tells messaging of them, and answers each signup with the subscription it ended with.
 */
export async function writeSignups(trx: Kysely<Tables>, messaging: Messaging, signups: SignupWrite[]): Promise<SignupOutcome[]> {
  const inserted = await insertUnlessPending(
    trx,
    signups.map((s) => s.row),
  );
  const existing = await findPendingIds(
    trx,
    signups.filter((s) => !inserted.has(s.row.id)).map((s) => ({ email: s.row.email, productSlug: s.row.product_slug })),
  );
  await messaging.signupsTaken(
    trx,
    signups.filter((s) => inserted.has(s.row.id)).map(({ row, product }) => ({ subscription: row, product })),
  );
  return signups.map(({ row }): SignupOutcome => {
    if (inserted.has(row.id)) return { subscriptionId: row.id, created: true };
    const id = existing.get(pairKey(row.product_slug, row.email));
    return id === undefined ? undefined : { subscriptionId: id, created: false };
  });
}

/** The signup write of a store: signups of the same moment share one transaction, which also claims their keys. */
export function signupWriter(database: Database, messaging: Messaging, now?: () => Date): WriteSignup {
  return groupCommit(
    database,
    keyedWrites({
      write: (trx, batch: SignupWrite[]) => writeSignups(trx, messaging, batch),
      proposedAnswer: ({ row }) => row.id,
      // A signup's answer is the pending twin's id when the address already waits for the product.
      answerOf: (outcome) => outcome?.subscriptionId,
      now,
    }),
  );
}
