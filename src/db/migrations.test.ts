import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { DIALECTS, freshTarget } from '../../test/helpers/dialects.ts';
import { createLogger } from '../log.ts';
import { DEFAULT_TEMPLATES } from '../messaging/templates/defaults.ts';
import { currentVersions } from '../messaging/templates/store.ts';
import { Migrator } from 'kysely/migration';
import type { TemplateKind } from '../messaging/kinds.ts';
import { revertTemplate } from '../messaging/templates/editing.ts';
import { templateProblems } from '../messaging/templates/placeholders.ts';
import { connectDatabase, openDatabase, type Database } from './database.ts';
import { MIGRATIONS, migrateToLatest } from './migrate.ts';
import * as defaultWordingWithShop from './migrations/017-default-wording-with-shop.ts';
import * as defaultWordingWithNumber from './migrations/022-default-wording-with-number.ts';
import * as templatesFromVersionOne from './migrations/023-templates-from-version-one.ts';

// A migration holds its own data. One that imported the code's constants (default texts, lists of
// kinds) would write something else into every database made after that code changed, so the
// same migration would mean different things in different databases. Node's own modules (a hash)
// are not the project's code.

const MIGRATION_FILES = new URL('./migrations/', import.meta.url);

test('every migration imports only kysely and Node’s own modules: what it writes is written in it', () => {
  const files = readdirSync(MIGRATION_FILES).filter((name) => name.endsWith('.ts'));
  assert.ok(files.length >= 12);
  for (const file of files) {
    const source = readFileSync(new URL(file, MIGRATION_FILES), 'utf8');
    const imported = [...source.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
    assert.deepEqual(
      imported.filter((specifier) => specifier !== 'kysely' && !specifier!.startsWith('node:')),
      [],
      `${file} imports only kysely`,
    );
  }
});

/** A new store of `dialect` migrated up to `last` only, as a release of that day left it. */
async function storeAsOf(dialect: (typeof DIALECTS)[number], last: string): Promise<Database> {
  const database = await connectDatabase(await freshTarget(dialect), createLogger('silent'));
  const migrator = new Migrator({ db: database.db as Kysely<unknown>, provider: { getMigrations: async () => MIGRATIONS } });
  assert.equal((await migrator.migrateTo(last)).error, undefined);
  return database;
}

const versionsOf = async (db: Database['db']) =>
  (await db.selectFrom('email_template_versions').select(['kind', 'version']).orderBy('kind').orderBy('version').execute()).map(
    (row) => `${row.kind} ${row.version}`,
  );

/** A reservation in the store: a shop in use, whose templates' history is kept. */
async function takeReservation(db: Database['db']): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('reservations')
    .values({
      id: 'res_1',
      name: 'n',
      email: 'e@example.com',
      product_slug: 'p',
      status: 'pending',
      created_at: at,
      updated_at: at,
      name_fold: 'n',
    })
    .execute();
}

for (const dialect of DIALECTS) {
  test(`a new store's templates are version 1 each, today's default (${dialect})`, async () => {
    const database = await openDatabase(await freshTarget(dialect), createLogger('silent'));
    try {
      assert.deepEqual(
        await versionsOf(database.db),
        Object.keys(DEFAULT_TEMPLATES)
          .sort()
          .map((kind) => `${kind} 1`),
      );
      for (const version of await currentVersions(database.db))
        assert.deepEqual(
          { subject: version.subject, body: version.body, enabled: version.enabled },
          { ...DEFAULT_TEMPLATES[version.kind as TemplateKind], enabled: true },
          version.kind,
        );
    } finally {
      await database.close();
    }
  });

  test(`a store in use keeps its history: a reservation taken, or a template edited before any (${dialect})`, async () => {
    for (const arrange of ['a reservation', 'an edit'] as const) {
      const database = await storeAsOf(dialect, '022-default-wording-with-number');
      try {
        const db = database.db;
        const at = new Date().toISOString();
        if (arrange === 'a reservation') await takeReservation(db);
        else
          await db
            .insertInto('email_template_versions')
            .values({ kind: 'reservation-fulfilled', version: 4, subject: '完了', body: '{{manageUrl}}', enabled: 1, created_at: at })
            .execute();
        await migrateToLatest(db as Kysely<unknown>);
        const current = new Map((await currentVersions(db)).map((v) => [v.kind, v]));
        // The receipt and the confirmation get the 発送予定 wording as their next version; the others keep theirs.
        for (const [kind, version] of [
          ['reservation-received', 4],
          ['reservation-confirmed', 4],
          ['reservation-cancelled', 3],
          ['restock-available', 2],
        ] as const) {
          assert.equal(current.get(kind)!.version, version, `${arrange}: ${kind}`);
          assert.deepEqual(
            { subject: current.get(kind)!.subject, body: current.get(kind)!.body },
            DEFAULT_TEMPLATES[kind],
            `${arrange}: ${kind}`,
          );
        }
        assert.equal(current.get('reservation-fulfilled')!.version, arrange === 'an edit' ? 4 : 3);
        assert.equal((await versionsOf(db)).length, arrange === 'an edit' ? 17 : 16, 'versions 1–3 kept, two added');
      } finally {
        await database.close();
      }
    }
  });

  test(`a new default wording reaches the kinds still on the old one, and no other (${dialect})`, async () => {
    const database = await storeAsOf(dialect, '007-email-templates');
    try {
      const db = database.db;
      // As migration 007 left it, staff edit one kind and turn another off.
      const first = await db
        .selectFrom('email_template_versions')
        .selectAll()
        .where('kind', '=', 'reservation-fulfilled')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('email_template_versions')
        .values([
          { kind: 'reservation-confirmed', version: 2, subject: '確定', body: '{{manageUrl}}', enabled: 1, created_at: first.created_at },
          { ...first, version: 2, enabled: 0 },
        ])
        .execute();
      // The wordings since the first, in order: the shop's signature (017), the reservation's number (022), 発送予定 (023).
      await migrateToLatest(db as Kysely<unknown>);
      const newer = async () => {
        await defaultWordingWithShop.up(db as Kysely<unknown>);
        await defaultWordingWithNumber.up(db as Kysely<unknown>);
        await templatesFromVersionOne.up(db as Kysely<unknown>);
      };
      const current = new Map((await currentVersions(db)).map((v) => [v.kind, v]));
      for (const [kind, version] of [
        ['reservation-received', 4],
        ['reservation-cancelled', 3],
        ['restock-available', 2],
      ] as const) {
        assert.equal(current.get(kind)!.version, version, kind);
        assert.deepEqual({ subject: current.get(kind)!.subject, body: current.get(kind)!.body }, DEFAULT_TEMPLATES[kind], kind);
      }
      assert.deepEqual(
        [current.get('reservation-confirmed')!.version, current.get('reservation-confirmed')!.subject],
        [2, '確定'],
        'edited: kept',
      );
      assert.deepEqual(
        [current.get('reservation-fulfilled')!.version, current.get('reservation-fulfilled')!.enabled],
        [2, false],
        'off: kept',
      );
      // Run again, nothing more is added: each kind's current text is no longer the old one.
      assert.equal((await versionsOf(db)).length, 13);
      await newer();
      assert.equal((await versionsOf(db)).length, 13);
    } finally {
      await database.close();
    }
  });

  test(`every stored version of an upgraded store restores to a template that works, the restock email's first with the sender block added (${dialect})`, async () => {
    const database = await storeAsOf(dialect, '022-default-wording-with-number');
    try {
      const db = database.db;
      await takeReservation(db);
      await migrateToLatest(db as Kysely<unknown>);
      const stored = await db.selectFrom('email_template_versions').selectAll().orderBy('kind').orderBy('version').execute();
      const first = stored.find((v) => v.kind === 'restock-available' && v.version === 1)!;
      assert.ok(!first.body.includes('{{shopSignature}}'), 'the restock email’s first version has no sender block');
      for (const old of stored) {
        const restored = await revertTemplate(database, { kind: old.kind, version: old.version });
        assert.ok(restored.ok, `${old.kind} ${old.version}: ${JSON.stringify(restored)}`);
        const { subject, body } = restored.template;
        assert.deepEqual(templateProblems(old.kind as TemplateKind, { subject, body }), [], `${old.kind} ${old.version}`);
        assert.equal(subject, old.subject);
        assert.ok(body.startsWith(old.body.trimEnd()), 'the old text, as it was');
      }
      const restock = (await currentVersions(db)).find((v) => v.kind === 'restock-available')!;
      const restoredFirst = (
        await db.selectFrom('email_template_versions').selectAll().where('kind', '=', 'restock-available').orderBy('version').execute()
      ).find((v) => v.body.startsWith(first.body.trimEnd()) && v.version > first.version)!;
      assert.equal(restoredFirst.body, `${first.body.trimEnd()}\n\n{{shopSignature}}`, 'the sender block, at the end');
      assert.ok(restock.body.includes('{{shopSignature}}'));
    } finally {
      await database.close();
    }
  });
}
