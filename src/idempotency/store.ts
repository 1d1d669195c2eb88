import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';

// The idempotency_keys table's SQL (migration 009).

/** A client's Idempotency-Key as the request carried it: keys are per client address. */
export interface IdempotencyKey {
  client: string;
  key: string;
}

/** A key and what it stands for: the request it was first sent with, by fingerprint. */
export interface Claim extends IdempotencyKey {
  fingerprint: string;
}

/** A key's first answer, as stored. */
export interface StoredAnswer {
  fingerprint: string;
  recordId: string;
}

/**
 * Claims the key if it is free (never used, or expired) until `expiresAt`, its answer not yet known;
 * true when claimed. A key claimed by a transaction still open is waited for (PostgreSQL's unique
 * index does that), so a duplicate learns the first answer instead of writing a second record.
 */
export async function claimKey(trx: Kysely<Tables>, claim: Claim, at: string, expiresAt: string): Promise<boolean> {
  const answer = { fingerprint: claim.fingerprint, record_id: '', created_at: at, expires_at: expiresAt };
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ client: claim.client, key: claim.key, ...answer })
    .onConflict((conflict) =>
      conflict
        .columns(['client', 'key'])
        .doUpdateSet(answer)
        // An expired key is free again even before the purge has deleted it.
        .where('idempotency_keys.expires_at', '<=', at),
    )
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The key's row. */
const rowOf = (claim: Claim) => (eb: ExpressionBuilder<Tables, 'idempotency_keys'>) =>
  eb.and([eb('client', '=', claim.client), eb('key', '=', claim.key)]);

/** The stored answer of a key another request claimed. */
export async function storedAnswer(trx: Kysely<Tables>, claim: Claim): Promise<StoredAnswer> {
  const row = await trx.selectFrom('idempotency_keys').select(['fingerprint', 'record_id']).where(rowOf(claim)).executeTakeFirstOrThrow();
  return { fingerprint: row.fingerprint, recordId: row.record_id };
}

/** Sets the answer of a claimed key: the id its request was answered with. */
export async function answerKey(trx: Kysely<Tables>, claim: Claim, recordId: string): Promise<void> {
  await trx.updateTable('idempotency_keys').set({ record_id: recordId }).where(rowOf(claim)).execute();
}

/** Frees a key whose request was refused: its retry is a new attempt, not the refusal again. */
export async function releaseKey(trx: Kysely<Tables>, claim: Claim): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where(rowOf(claim)).execute();
}

/** Deletes up to `limit` keys expired at `now`, oldest first; returns how many. */
export async function deleteExpiredKeys(db: Kysely<Tables>, now: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb(
        eb.refTuple('client', 'key'),
        'in',
        eb
          .selectFrom('idempotency_keys')
          .select(['client', 'key'])
          .where('expires_at', '<=', now)
          .orderBy('expires_at')
          .limit(limit)
          .$asTuple('client', 'key'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
