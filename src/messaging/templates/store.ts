import { sql, type Kysely } from 'kysely';
import type { EmailTemplateVersionRow, Tables } from '../../db/schema.ts';
import type { TemplateKind } from '../kinds.ts';

// The SQL of the email templates: one row per version (migration 007), never changed once written;
// a kind's current template is its highest version.

export type TemplateVersion = Omit<EmailTemplateVersionRow, 'enabled' | 'kind'> & { kind: TemplateKind; enabled: boolean };

const toVersion = (row: EmailTemplateVersionRow): TemplateVersion => ({
  ...row,
  kind: row.kind as TemplateKind,
  enabled: Boolean(row.enabled),
});

/** Every kind's current version. */
export async function currentVersions(db: Kysely<Tables>): Promise<TemplateVersion[]> {
  const rows = await db
    .selectFrom('email_template_versions as t')
    .selectAll('t')
    .where('t.version', '=', (eb) =>
      eb
        .selectFrom('email_template_versions as newer')
        .select((e) => e.fn.max('newer.version').as('v'))
        .whereRef('newer.kind', '=', 't.kind'),
    )
    .execute();
  return rows.map(toVersion);
}

export async function currentVersion(db: Kysely<Tables>, kind: TemplateKind): Promise<TemplateVersion | undefined> {
  const row = await db
    .selectFrom('email_template_versions')
    .selectAll()
    .where('kind', '=', kind)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toVersion(row);
}

/** The current version number of each of `kinds`. */
export async function currentVersionNumbers(db: Kysely<Tables>, kinds: TemplateKind[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('email_template_versions')
    .select(['kind', (eb) => eb.fn.max<number>('version').as('version')])
    .where('kind', 'in', kinds)
    .groupBy('kind')
    .execute();
  return new Map(rows.map((r) => [r.kind, Number(r.version)]));
}

export async function findVersion(db: Kysely<Tables>, kind: TemplateKind, version: number): Promise<TemplateVersion | undefined> {
  const row = await db
    .selectFrom('email_template_versions')
    .selectAll()
    .where('kind', '=', kind)
    .where('version', '=', version)
    .executeTakeFirst();
  return row && toVersion(row);
}

export async function listVersions(db: Kysely<Tables>, kind: TemplateKind): Promise<TemplateVersion[]> {
  const rows = await db.selectFrom('email_template_versions').selectAll().where('kind', '=', kind).orderBy('version', 'desc').execute();
  return rows.map(toVersion);
}

/**
 * Writes the kind's next version (one more than its highest) and returns it. Two writers at once
 * may pick the same number; the primary key refuses the second, which the caller retries.
 */
export async function insertNextVersion(
  db: Kysely<Tables>,
  kind: TemplateKind,
  template: { subject: string; body: string; enabled: boolean },
  now: string,
): Promise<TemplateVersion> {
  const row = await db
    .insertInto('email_template_versions')
    .columns(['kind', 'version', 'subject', 'body', 'enabled', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('email_template_versions')
        .select([
          // Cast, or PostgreSQL cannot tell the type of a parameter in a select list.
          sql<string>`cast(${kind} as text)`.as('kind'),
          sql<number>`coalesce(max(version), 0) + 1`.as('version'),
          sql<string>`cast(${template.subject} as text)`.as('subject'),
          sql<string>`cast(${template.body} as text)`.as('body'),
          sql<number>`cast(${template.enabled ? 1 : 0} as integer)`.as('enabled'),
          sql<string>`cast(${now} as text)`.as('created_at'),
        ])
        .where('kind', '=', kind),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return toVersion(row);
}
