import type { Catalog } from '../catalog/catalog.ts';
import type { Work } from '../db/group-commit.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { findPendingId, insertUnlessPending } from './store.ts';
import { subscriptionId } from './subscription-id.ts';

export interface SignupRequest {
  /** Lowercased. */
  email: string;
  productSlug: string;
}

/** The pending subscription a signup ended with; undefined when its twin changed before it could be read (try again). */
export type SignupOutcome = { subscriptionId: string; created: boolean } | undefined;

export type SignupResult = { ok: true; subscriptionId: string; created: boolean } | { ok: false; reason: 'unknownProduct' };

export interface SignupDeps {
  catalog: Catalog;
  messaging: Messaging;
  /** Runs the write in a transaction (the app's shares one among the signups of a moment, and makes it idempotent per key). */
  transaction: (work: Work<SignupOutcome>) => Promise<SignupOutcome>;
  wakeDispatcher: () => void;
}

/** A twin that keeps changing between our insert and our read is an admin at work; three tries are plenty. */
const ATTEMPTS = 3;

/**
 * A restock signup: 1. the product must be in the catalog; 2. in one transaction, a new pending
 * subscription is written with the shop's chat notice of it, unless the address already waits for
 * the product, when that subscription is the answer and nothing is written. The unique index decides
 * between concurrent signups, so twenty identical requests at once make one subscription and one
 * notice. Once a notice has committed, the dispatcher is woken to deliver it.
 */
export async function signUp(deps: SignupDeps, request: SignupRequest, now: Date): Promise<SignupResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknownProduct' };

  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const row = {
      id: subscriptionId(now.getTime()),
      email: request.email,
      product_slug: product.slug,
      status: 'pending',
      created_at: now.toISOString(),
    };
    const outcome = await deps.transaction(async (trx): Promise<SignupOutcome> => {
      if (await insertUnlessPending(trx, row)) {
        await deps.messaging.signupTaken(trx, row, product);
        return { subscriptionId: row.id, created: true };
      }
      const twin = await findPendingId(trx, row.email, row.product_slug);
      return twin === undefined ? undefined : { subscriptionId: twin, created: false };
    });
    if (!outcome) continue;
    if (outcome.created) deps.wakeDispatcher();
    return { ok: true, ...outcome };
  }
  throw new Error(`restock signup: the pending subscription changed during each of ${ATTEMPTS} attempts`);
}
