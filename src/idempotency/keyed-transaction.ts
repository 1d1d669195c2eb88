import { createHmac } from 'node:crypto';
import type { Work } from '../db/group-commit.ts';
import { answerKey, claimKey, releaseKey, storedAnswer, type Claim, type IdempotencyKey } from './store.ts';

/** How long a key answers with its first answer. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * The request a key stands for, as the form validated it: the form's name and its fields in a
 * fixed order (the name trimmed, the address lowercased), hashed. A retry that serialises its JSON
 * differently (key order, spacing, escapes, extra fields the form ignores) is the same request,
 * because it would write the same record; raw bytes would call it a different one and answer 422.
 * An HMAC under the service's secret, so the table holds no name or address, and one who reads it
 * cannot confirm a guessed name and address by hashing them (a plain hash of so little would).
 */
export function claimOf(secret: string, key: IdempotencyKey, form: string, fields: readonly string[]): Claim {
  const fingerprint = createHmac('sha256', secret)
    .update(JSON.stringify([form, ...fields]))
    .digest('hex');
  return { client: key.client, key: key.key, fingerprint };
}

/** How a keyed write answers: the id each answer names, and the answer again from that id. */
export interface KeyedAnswers<R> {
  /** The id a result's answer names (its new record's, or another's); undefined when it was refused. */
  idOf(result: R): string | undefined;
  /** The first answer again, for a retry of its request, from the id it named. */
  again(trx: Parameters<Work<R>>[0], recordId: string): Promise<R>;
}

/** What a client is told when its key was first sent with another request. */
export const IDEMPOTENCY_KEY_REUSED = 'Idempotency-Key reused with a different request';

/** A key first sent with another request. */
export class KeyReused extends Error {
  constructor() {
    super(IDEMPOTENCY_KEY_REUSED);
  }
}

const REUSED = Symbol('reused');

/**
 * Wraps a transaction so that a work run in it happens once per key: in the same transaction the
 * key is claimed first, then the work runs and the key keeps the id its result names, so a record
 * and its key commit together or not at all. A key already claimed answers its first answer again
 * (`again`) without running the work; one first sent with another request throws KeyReused once the
 * transaction has ended. A refused result frees the key: its retry is tried again, never answered
 * from memory. Without a claim (no key sent) the work just runs.
 */
export function keyedTransaction<R>(
  transaction: (work: Work<R | typeof REUSED>) => Promise<R | typeof REUSED>,
  claim: Claim | undefined,
  answers: KeyedAnswers<R>,
  now: () => Date,
): (work: Work<R>) => Promise<R> {
  if (!claim) return transaction as (work: Work<R>) => Promise<R>;
  return async (work) => {
    const outcome = await transaction(async (trx) => {
      const at = now();
      if (!(await claimKey(trx, claim, at.toISOString(), new Date(at.getTime() + KEY_LIFETIME_MS).toISOString()))) {
        const first = await storedAnswer(trx, claim);
        return first.fingerprint === claim.fingerprint ? answers.again(trx, first.recordId) : REUSED;
      }
      const result = await work(trx);
      const id = answers.idOf(result);
      if (id === undefined) await releaseKey(trx, claim);
      else await answerKey(trx, claim, id);
      return result;
    });
    if (outcome === REUSED) throw new KeyReused();
    return outcome;
  };
}
