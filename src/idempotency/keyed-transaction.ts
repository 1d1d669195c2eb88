import type { Work } from '../db/group-commit.ts';
import { KEY_LIFETIME_MS, type Claim } from './claim.ts';
import { answerKey, claimKey, releaseKey, storedAnswer } from './store.ts';

/** How a keyed write answers: the id each answer names, and the answer again from that id. */
export interface KeyedAnswers<R> {
  /** The id a result's answer names (its new record's, or another's); undefined when it was refused. */
  idOf(result: R): string | undefined;
  /** The first answer again, for a retry of its request, from the id it named. */
  again(trx: Parameters<Work<R>>[0], recordId: string): Promise<R>;
}

/** A key first sent with another request. */
export class KeyReused extends Error {
  constructor() {
    super('Idempotency-Key reused with a different request');
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
