import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { canonicalAddressSql } from '../src/db/address.ts';
import { MIGRATIONS, migrateToLatest } from '../src/db/migrate.ts';
import { canonicalAddress } from '../src/text/canonical-address.ts';
import { DIALECTS, openFreshStore } from './helpers/dialects.ts';

// One customer, one address, in the database: the SQL form of a stored address (which the look-up
// indexes hold) agrees with the rule in JavaScript on both dialects, and the migration that brings
// it merges a campaign's per-address counts under the canonical address.

/** Stored addresses as the forms keep them (trimmed, lowercased, ASCII) and as older systems left them. */
const STORED = [
  'taro@example.com',
  'taro+shop@example.com',
  'taro+a+b@example.com',
  '+only@example.com',
  'ume.tanaka@gmail.com',
  'u.m.e.tanaka+news@googlemail.com',
  'ume.tanaka@gmail.co.jp',
  'ume.tanaka+x@gmail.com.example',
  'Mixed.Case+Tag@GMail.com',
  'a@b@example.com',
  'no-at-sign',
  '@example.com',
  'x@',
  'x+@example.com',
  '.dots.@gmail.com',
];

for (const dialect of DIALECTS) {
  describe(`canonical addresses in SQL (${dialect})`, () => {
    test('the SQL form of every stored address is the one JavaScript gives', async () => {
      const db = await openFreshStore(dialect);
      try {
        await migrateToLatest(db as Kysely<unknown>);
        for (const email of STORED) {
          const { folded } = await db
            .selectNoFrom(sql<string>`(select ${canonicalAddressSql('email')} from (select ${email} as email) as stored)`.as('folded'))
            .executeTakeFirstOrThrow();
          assert.equal(folded, canonicalAddress(email.toLowerCase()), email);
        }
      } finally {
        await db.destroy();
      }
    });

    test("the migration merges a campaign's counts of one customer's spellings under the canonical address", async () => {
      const db = await openFreshStore(dialect);
      try {
        const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
        assert.equal((await migrator.migrateTo('017-default-wording-with-shop')).error, undefined);
        const at = '2026-01-01T00:00:00.000Z';
        const campaign = {
          product_slug: 'p',
          opens_at: null,
          closes_at: null,
          capacity: null,
          per_customer_limit: 3,
          created_at: at,
          updated_at: at,
        };
        await db
          .insertInto('preorders')
          .values([
            { ...campaign, id: 'pre_a', reserved: 4, product_slug: 'a' },
            { ...campaign, id: 'pre_b', reserved: 1, product_slug: 'b' },
          ])
          .execute();
        await db
          .insertInto('preorder_customers')
          .values([
            { preorder_id: 'pre_a', email: 'umetanaka@gmail.com', reserved: 1 },
            { preorder_id: 'pre_a', email: 'ume.tanaka@gmail.com', reserved: 1 },
            { preorder_id: 'pre_a', email: 'ume.tanaka+x@googlemail.com', reserved: 1 },
            { preorder_id: 'pre_a', email: 'jiro+shop@example.com', reserved: 1 },
            { preorder_id: 'pre_b', email: 'ume.tanaka@gmail.com', reserved: 1 },
          ])
          .execute();
        const merged = await migrator.migrateTo('018-canonical-addresses');
        assert.deepEqual(
          merged.results?.map((result) => [result.migrationName, result.status]),
          [['018-canonical-addresses', 'Success']],
        );
        const counts = await db.selectFrom('preorder_customers').selectAll().orderBy('preorder_id').orderBy('email').execute();
        assert.deepEqual(
          counts.map((row) => [row.preorder_id, row.email, Number(row.reserved)]),
          [
            ['pre_a', 'jiro@example.com', 1],
            ['pre_a', 'umetanaka@gmail.com', 3],
            ['pre_b', 'umetanaka@gmail.com', 1],
          ],
        );
      } finally {
        await db.destroy();
      }
    });
  });
}
