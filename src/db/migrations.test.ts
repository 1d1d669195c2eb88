import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { DIALECTS, freshTarget } from '../../test/helpers/dialects.ts';
import { createLogger } from '../log.ts';
import { DEFAULT_TEMPLATES } from '../messaging/templates/defaults.ts';
import { currentVersions } from '../messaging/templates/store.ts';
import { openDatabase } from './database.ts';
import * as defaultWordingWithShop from './migrations/017-default-wording-with-shop.ts';
import * as defaultWordingWithNumber from './migrations/022-default-wording-with-number.ts';

// A migration holds its own data. One that imported the code's constants (default texts, lists of
// kinds) would write something else into every database made after that code changed, so the
// same migration would mean different things in different databases. Node's own modules (a hash)
// are not the project's code.

const MIGRATIONS = new URL('./migrations/', import.meta.url);

test('every migration imports only kysely and Node’s own modules: what it writes is written in it', () => {
  const files = readdirSync(MIGRATIONS).filter((name) => name.endsWith('.ts'));
  assert.ok(files.length >= 12);
  for (const file of files) {
    const source = readFileSync(new URL(file, MIGRATIONS), 'utf8');
    const imported = [...source.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
    assert.deepEqual(
      imported.filter((specifier) => specifier !== 'kysely' && !specifier!.startsWith('node:')),
      [],
      `${file} imports only kysely`,
    );
  }
});

for (const dialect of DIALECTS) {
  test(`a new default wording reaches the kinds still on the old one, and no other (${dialect})`, async () => {
    const database = await openDatabase(await freshTarget(dialect), createLogger('silent'));
    try {
      const db = database.db;
      // Back to the store as migration 007 left it, then staff edit one kind and turn another off.
      await db.deleteFrom('email_template_versions').where('version', '>', 1).execute();
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
      // The wordings since the first, in order: the shop's signature (017), the reservation's number (022).
      const newer = async () => {
        await defaultWordingWithShop.up(db as Kysely<unknown>);
        await defaultWordingWithNumber.up(db as Kysely<unknown>);
      };
      await newer();
      const current = new Map((await currentVersions(db)).map((v) => [v.kind, v]));
      for (const [kind, version] of [
        ['reservation-received', 3],
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
      const count = async () => (await db.selectFrom('email_template_versions').select('kind').execute()).length;
      assert.equal(await count(), 12);
      await newer();
      assert.equal(await count(), 12);
    } finally {
      await database.close();
    }
  });
}
