import type { Kysely } from 'kysely';

/**
 * The public forms' Idempotency-Key answers: one row per client and key, claimed in the
 * transaction that writes the record it answers with, so a key and its record exist together or not
 * at all. `record_id` is the id the first answer named (written with the claim); keys are
 * deleted once `expires_at` has passed, in batches found through its index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['client', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute();
}
