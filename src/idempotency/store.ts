import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import type { Claim } from './claim.ts';

// The idempotency_keys table's SQL (migration 009).

/** A key's first answer, as stored. */
export interface StoredAnswer {
  fingerprint: string;
  recordId: string;
}

/** `<client>\n<key>`: one key of one client (neither holds a line break). */
export const claimId = (claim: { client: string; key: string }) => `${claim.client}\n${claim.key}`;

/**
 * Claims the keys that are free (never used, or expired) for `expiresAt`, each with the id its
 * answer is to name, and returns the ids (claimId) of those it claimed. A key claimed by a
 * transaction still open is waited for (PostgreSQL's unique index does that), so a duplicate learns
 * the first answer instead of writing a second record. The claims must be distinct; in a fixed order
 * (by claimId) two batches cannot wait for each other.
 */
export async function claimKeys(
  trx: Kysely<Tables>,
  claims: { claim: Claim; recordId: string }[],
  at: string,
  expiresAt: string,
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const ordered = [...claims].sort((a, b) => (claimId(a.claim) < claimId(b.claim) ? -1 : 1));
  const rows = await trx
    .insertInto('idempotency_keys')
    .values(
      ordered.map(({ claim, recordId }) => ({
        client: claim.client,
        key: claim.key,
        fingerprint: claim.fingerprint,
        record_id: recordId,
        created_at: at,
        expires_at: expiresAt,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['client', 'key'])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          record_id: eb.ref('excluded.record_id'),
          created_at: eb.ref('excluded.created_at'),
          expires_at: eb.ref('excluded.expires_at'),
        }))
        // An expired key is free again even before the purge has deleted it.
        .where('idempotency_keys.expires_at', '<=', at),
    )
    .returning(['client', 'key'])
    .execute();
  return new Set(rows.map(claimId));
}

/** The rows of these keys. */
const rowsOf = (claims: Claim[]) => (eb: ExpressionBuilder<Tables, 'idempotency_keys'>) =>
  eb.or(claims.map((c) => eb.and([eb('client', '=', c.client), eb('key', '=', c.key)])));

/** The stored answers of these keys, by claimId. */
export async function storedAnswers(trx: Kysely<Tables>, claims: Claim[]): Promise<Map<string, StoredAnswer>> {
  if (claims.length === 0) return new Map();
  const rows = await trx
    .selectFrom('idempotency_keys')
    .select(['client', 'key', 'fingerprint', 'record_id'])
    .where(rowsOf(claims))
    .execute();
  return new Map(rows.map((row) => [claimId(row), { fingerprint: row.fingerprint, recordId: row.record_id }]));
}

/** Sets the answer of claimed keys whose request was answered with another id than it proposed. */
export async function correctAnswers(trx: Kysely<Tables>, answers: { claim: Claim; recordId: string }[]): Promise<void> {
  for (const { claim, recordId } of answers) {
    await trx
      .updateTable('idempotency_keys')
      .set({ record_id: recordId })
      .where('client', '=', claim.client)
      .where('key', '=', claim.key)
      .execute();
  }
}

/** Frees keys whose request was refused: its retry is a new attempt, not the refusal again. */
export async function releaseKeys(trx: Kysely<Tables>, claims: Claim[]): Promise<void> {
  if (claims.length === 0) return;
  await trx.deleteFrom('idempotency_keys').where(rowsOf(claims)).execute();
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
