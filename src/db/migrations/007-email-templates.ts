import type { Kysely } from 'kysely';
import { DEFAULT_TEMPLATES, TEMPLATE_KINDS } from '../../email-templates/kinds.ts';

/**
 * The customer emails' templates, one row per saved version (SPEC §6.2), each kind starting with
 * its Japanese default as version 1. Queued emails name the version they are rendered with, so
 * versions are never changed or deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_template_versions')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_template_versions_pk', ['kind', 'version'])
    .execute();
  // The defaults as the code had them when the table was made: stored, so a later edit of the code's
  // wording changes no version a queued email may name.
  const now = new Date().toISOString();
  await (db as Kysely<{ email_template_versions: Record<string, string | number> }>)
    .insertInto('email_template_versions')
    .values(TEMPLATE_KINDS.map((kind) => ({ kind, version: 1, ...DEFAULT_TEMPLATES[kind], enabled: 1, created_at: now })))
    .execute();
}
