import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import { KEY_LIFETIME_MS, type Claim } from './claim.ts';
import { claimId, claimKeys, releaseKeys, saveAnswers, storedAnswers, type StoredAnswer } from './store.ts';

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

/**
 * Makes a batch write (a group commit's) idempotent, in its transaction: first the batch's keys are
 * claimed, then only the items whose key is new (or that have none) are written, then each claimed
 * key keeps its answer, the id `answerOf` names. A record and its key are committed together or not
 * at all. A refused item's answer (`answerOf` undefined) is not kept: its key is released, so a
 * retry is tried again rather than refused from memory, and never stored as a success.
 *
 * A duplicate in another transaction waits on the key's row until this one commits, then reads its
 * answer; a duplicate in this batch is answered from it directly. `now` dates the keys (24 hours).
 */
export function keyedWrites<T, R>(
  write: (trx: Kysely<Tables>, items: T[]) => Promise<R[]>,
  answerOf: (result: R, item: T) => string | undefined,
  now: () => Date = () => new Date(),
): (trx: Kysely<Tables>, batch: Keyed<T>[]) => Promise<KeyedOutcome<R>[]> {
  return async (trx, batch) => {
    const at = now();
    const [created, expires] = [at.toISOString(), new Date(at.getTime() + KEY_LIFETIME_MS).toISOString()];
    // The first item of each key leads; later items of the batch with that key follow its answer.
    const leaders = new Map<string, number>();
    batch.forEach(({ claim }, i) => {
      if (claim && !leaders.has(claimId(claim))) leaders.set(claimId(claim), i);
    });
    const leaderClaims = [...leaders.values()].map((i) => batch[i]!.claim!);
    const claimed = await claimKeys(trx, leaderClaims, created, expires);
    const answers: Map<string, StoredAnswer> = await storedAnswers(
      trx,
      leaderClaims.filter((claim) => !claimed.has(claimId(claim))),
    );

    const writing = batch.flatMap(({ claim }, i) => (claim === undefined || (leaders.get(claimId(claim)) === i && claimed.has(claimId(claim))) ? [i] : []));
    const written = await write(
      trx,
      writing.map((i) => batch[i]!.item),
    );
    // R may itself be undefined (a signup's), so presence is asked with has(), never by the value.
    const results = new Map(writing.map((i, n) => [i, written[n] as R]));

    const kept: { claim: Claim; recordId: string }[] = [];
    const released: Claim[] = [];
    for (const i of writing) {
      const claim = batch[i]!.claim;
      if (!claim) continue;
      const recordId = answerOf(results.get(i) as R, batch[i]!.item);
      if (recordId === undefined) released.push(claim);
      else {
        kept.push({ claim, recordId });
        answers.set(claimId(claim), { fingerprint: claim.fingerprint, recordId });
      }
    }
    await saveAnswers(trx, kept, created, expires);
    await releaseKeys(trx, released);

    return batch.map((entry, i): KeyedOutcome<R> => {
      if (results.has(i)) return { kind: 'written', result: results.get(i) as R };
      const claim = entry.claim!;
      const answer = answers.get(claimId(claim));
      if (answer) return answer.fingerprint === claim.fingerprint ? { kind: 'replay', recordId: answer.recordId } : { kind: 'mismatch' };
      const leader = leaders.get(claimId(claim))!;
      // Its key is held by neither a stored answer nor this batch: it expired and was purged between our two statements.
      if (!results.has(leader)) throw new Error('idempotency key vanished while it was being read; the item is retried alone');
      return batch[leader]!.claim!.fingerprint === claim.fingerprint ? { kind: 'written', result: results.get(leader) as R } : { kind: 'mismatch' };
    });
  };
}
