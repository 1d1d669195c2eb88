import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import { KEY_LIFETIME_MS, type Claim } from './claim.ts';
import { claimId, claimKeys, correctAnswers, releaseKeys, storedAnswers, type StoredAnswer } from './store.ts';

/** An item of a batch write, with the key its request carried, if any. */
export interface Keyed<T> {
  item: T;
  claim?: Claim;
}

/**
 * What became of a keyed item: written (its own result, or, for a duplicate of a refused request in
 * the same batch, that request's result), answered by its key's first answer (`replay`: the id it
 * named), or refused because its key was first sent with another request (`mismatch`).
 */
export type KeyedOutcome<R> = { kind: 'written'; result: R } | { kind: 'replay'; recordId: string } | { kind: 'mismatch' };

/** How a batch write is made idempotent: the write itself, and the id its answer names. */
export interface KeyedWriteOptions<T, R> {
  write: (trx: Kysely<Tables>, items: T[]) => Promise<R[]>;
  /** The id an item's answer names when it is written as asked (its own new record's). */
  proposedAnswer: (item: T) => string;
  /** The id its answer named in the end (another record's, say), or undefined when it was refused. */
  answerOf: (result: R, item: T) => string | undefined;
  /** Dates the keys, which answer for 24 hours. */
  now?: () => Date;
}

/**
 * Makes a batch write (a group commit's) idempotent in its transaction: the batch's keys are claimed
 * with the id each item proposes, only items with a new key (or none) are written, and the few claims
 * whose answer differs are corrected; a record and its key commit together or not at all. A refused
 * item's key is released, so its retry is tried again, never answered from memory. One statement more
 * per batch. A duplicate in another transaction waits on the key's row, then reads its answer; one in
 * this batch is answered from it.
 */
export function keyedWrites<T, R>(
  options: KeyedWriteOptions<T, R>,
): (trx: Kysely<Tables>, batch: Keyed<T>[]) => Promise<KeyedOutcome<R>[]> {
  const now = options.now ?? (() => new Date());
  return async (trx, batch) => {
    const at = now();
    const [created, expires] = [at.toISOString(), new Date(at.getTime() + KEY_LIFETIME_MS).toISOString()];
    // The first item of each key leads; later items of the batch with that key follow its answer.
    const leaders = new Map<string, number>();
    batch.forEach(({ claim }, i) => {
      if (claim && !leaders.has(claimId(claim))) leaders.set(claimId(claim), i);
    });
    const proposals = [...leaders.values()].map((i) => ({ claim: batch[i]!.claim!, recordId: options.proposedAnswer(batch[i]!.item) }));
    const claimed = await claimKeys(trx, proposals, created, expires);
    const answers: Map<string, StoredAnswer> = await storedAnswers(
      trx,
      proposals.flatMap(({ claim }) => (claimed.has(claimId(claim)) ? [] : [claim])),
    );

    const writing = batch.flatMap(({ claim }, i) =>
      claim === undefined || (leaders.get(claimId(claim)) === i && claimed.has(claimId(claim))) ? [i] : [],
    );
    const written = await options.write(
      trx,
      writing.map((i) => batch[i]!.item),
    );
    // R may itself be undefined (a signup's), so presence is asked with has(), never by the value.
    const results = new Map(writing.map((i, n) => [i, written[n] as R]));

    const corrected: { claim: Claim; recordId: string }[] = [];
    const released: Claim[] = [];
    for (const i of writing) {
      const { claim, item } = batch[i]!;
      if (!claim) continue;
      const recordId = options.answerOf(results.get(i) as R, item);
      if (recordId === undefined) released.push(claim);
      else {
        if (recordId !== options.proposedAnswer(item)) corrected.push({ claim, recordId });
        answers.set(claimId(claim), { fingerprint: claim.fingerprint, recordId });
      }
    }
    await correctAnswers(trx, corrected);
    await releaseKeys(trx, released);

    return batch.map((entry, i): KeyedOutcome<R> => {
      if (results.has(i)) return { kind: 'written', result: results.get(i) as R };
      const claim = entry.claim!;
      const answer = answers.get(claimId(claim));
      if (answer) return answer.fingerprint === claim.fingerprint ? { kind: 'replay', recordId: answer.recordId } : { kind: 'mismatch' };
      const leader = leaders.get(claimId(claim))!;
      // Its key is held by neither a stored answer nor this batch: it expired and was purged between our two statements.
      if (!results.has(leader)) throw new Error('idempotency key vanished while it was being read; the item is retried alone');
      return batch[leader]!.claim!.fingerprint === claim.fingerprint
        ? { kind: 'written', result: results.get(leader) as R }
        : { kind: 'mismatch' };
    });
  };
}
