import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * What happened to an email after the provider took it (a bounce, a complaint, a delivery), and the
 * addresses the shop no longer mails because of it. `outbox.provider_message_id` is the id the
 * provider gave the message when it took it (the email API's `id`; SMTP's Message-ID), by which its
 * later events are matched. `email_events.webhook_id` is the signed event's own id (`svix-id`), unique,
 * so an event delivered twice is recorded once; events the service finds itself (an SMTP server's
 * 5xx for the recipient) have none. A suppression is keyed by the canonical address, or, once its
 * customer is erased, by a keyed hash of it, so the address is gone and still not mailed.
 * Each step is skipped when done already, so the migration can run again on a store it was applied to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const outbox = (await db.introspection.getTables()).find((table) => table.name === 'outbox');
  if (!outbox?.columns.some((column) => column.name === 'provider_message_id'))
    await db.schema.alterTable('outbox').addColumn('provider_message_id', 'text').execute();
  await db.schema
    .createIndex('outbox_provider_message')
    .ifNotExists()
    .on('outbox')
    .column('provider_message_id')
    .where(sql.raw<SqlBool>('provider_message_id is not null'))
    .execute();

  await db.schema
    .createTable('email_events')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.unique())
    .addColumn('webhook_timestamp', 'text')
    .addColumn('outbox_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('email_events_address')
    .ifNotExists()
    .on('email_events')
    .columns(['address', 'kind', 'occurred_at'])
    .execute();
  await db.schema.createIndex('email_events_outbox').ifNotExists().on('email_events').column('outbox_id').execute();
  await db.schema.createIndex('email_events_occurred').ifNotExists().on('email_events').columns(['occurred_at', 'kind']).execute();

  await db.schema
    .createTable('email_suppressions')
    .ifNotExists()
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('retried_at', 'text')
    .addColumn('lifted_at', 'text')
    .addColumn('lifted_by', 'text')
    .addColumn('lift_reason', 'text')
    .execute();
}
