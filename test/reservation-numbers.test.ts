import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { MIGRATIONS, migrateToLatest } from '../src/db/migrate.ts';
import { insertReservations } from '../src/reservations/store.ts';
import { DIALECTS, openFreshStore } from './helpers/dialects.ts';
import { startEmailTestApp, type EmailTestApp } from './helpers/email-app.ts';
import { newerPending } from './helpers/reservation-rows.ts';
import type { ServiceProcess } from './helpers/service-process.ts';
import { startTwoInstances } from './helpers/two-instances.ts';
import { waitUntil } from './helpers/wait.ts';

// Reservation numbers and finding people as staff type them, over real HTTP on both dialects, with
// the email API and the chat webhook as a real receiver: the number a customer quotes (1001, 1002,
// …) in the answer, the lists, the record, the CSV, the email, the chat notice and the customer's
// page; unique under concurrency and across instances; the lists' folded `q`; the archive's `q`;
// and the migration that numbers the reservations already stored.

type Mail = { to: string[]; text: string };

for (const dialect of DIALECTS) {
  describe(`reservation numbers (${dialect})`, () => {
    let env: EmailTestApp;
    before(async () => {
      env = await startEmailTestApp({ dialect, webhooks: ['reservation'] });
    });
    after(() => env.close());

    const post = (body: unknown, key?: string) =>
      env.app.request('/api/reservation', {
        method: 'POST',
        headers: key ? { 'idempotency-key': key } : {},
        body: JSON.stringify(body),
      });
    const reserve = async (name: string, email: string, key?: string) =>
      (await env.app.read('/api/reservation', await post({ name, email, productSlug: 'kumo-vco-2' }, key))).success();
    const find = async (q: string) =>
      (await env.app.call('/api/admin-reservations-list', { q }))
        .success()
        .reservations.map((r) => r.name)
        .sort();

    test('numbered from 1001 as taken; the answer, a replay, the lists, the record, the CSV, the email, the chat notice and the customer’s page all name it', async () => {
      const first = await reserve('一番 太郎', 'first@example.com', 'numbers-first');
      const second = await reserve('二番 花子', 'second@example.com');
      assert.deepEqual([first.reservationNumber, second.reservationNumber], [1001, 1002]);
      assert.deepEqual(await reserve('一番 太郎', 'first@example.com', 'numbers-first'), first, 'a replay answers the same number');

      const listed = (await env.app.call('/api/admin-reservations-list', {})).success().reservations;
      assert.deepEqual(
        listed.map((r) => [r.id, r.number]),
        [
          [second.reservationId, 1002],
          [first.reservationId, 1001],
        ],
      );
      const record = (await env.app.call('/api/admin/reservations/get', { id: first.reservationId })).success().reservation;
      assert.equal(record.number, 1001);

      const csv = await (await env.app.admin('/api/admin/reservations/export', {})).text();
      const rows = csv
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n');
      assert.equal(rows[0]!.split(',')[0], '予約番号');
      assert.deepEqual(
        rows.slice(1).map((row) => row.split(',')[0]),
        ['1002', '1001'],
      );

      const mails = () => env.api.accepted('/emails').map((request) => request.body as Mail);
      const mail = await waitUntil(() => mails().find((m) => m.to[0] === 'first@example.com'), { what: 'the first confirmation' });
      assert.match(mail.text, /^ご予約番号: 1001$/m);
      const chat = await waitUntil(() => env.api.accepted('/hooks/reservation').find((r) => JSON.stringify(r.body).includes('一番 太郎')), {
        what: 'the chat notice',
      });
      assert.match(JSON.stringify(chat.body), /予約番号[^0-9]{1,40}1001/);

      const manage = /https:\/\/shop\.example\.jp(\/reservations\/manage\?token=\S+)/.exec(mail.text)?.[1];
      assert.ok(manage, 'the email links to the customer’s page');
      const page = await (await env.app.request(manage)).text();
      assert.match(page, /<dt>ご予約番号<\/dt><dd>1001<\/dd>/);
    });

    test('twenty taken at once get twenty numbers, none twice; the next one taken gets a higher one', async () => {
      const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => reserve(`同時 ${i}`, `rush${i}@example.com`)));
      const numbers = taken.map((t) => t.reservationNumber!);
      assert.equal(new Set(numbers).size, 20);
      const stored = (await env.app.call('/api/admin-reservations-list', { q: '同時' })).success().reservations;
      assert.equal(stored.length, 20);
      assert.deepEqual(stored.map((r) => r.number).sort(), [...numbers].sort(), 'each stored under the number it was answered');
      // Taken one after another, each numbered above the one before.
      const next = await reserve('次 の人', 'after-rush@example.com');
      assert.ok(numbers.every((n) => n < next.reservationNumber!));
    });

    test('q folds both sides: the IME’s full-width space, kana of either kind and width, full-width letters, accents; a number exactly', async () => {
      const names = ['鈴木 一郎', 'すずき はなこ', 'ｽｽﾞｷ ｼﾞﾛｳ', 'ＳＵＺＵＫＩ Taro', 'Müller Anna', 'Anna 100%'];
      const numbers = new Map<string, number>();
      for (const [i, name] of names.entries()) numbers.set(name, (await reserve(name, `fold${i}@example.com`)).reservationNumber!);
      assert.deepEqual(await find('鈴木　一郎'), ['鈴木 一郎']);
      assert.deepEqual(await find('鈴木一郎'), ['鈴木 一郎']);
      assert.deepEqual(await find('スズキ'), ['すずき はなこ', 'ｽｽﾞｷ ｼﾞﾛｳ']);
      assert.deepEqual(await find('ずき'), ['すずき はなこ', 'ｽｽﾞｷ ｼﾞﾛｳ'], 'voicing marks stay: すき would not be ずき');
      assert.deepEqual(await find('suzuki'), ['ＳＵＺＵＫＩ Taro']);
      assert.deepEqual(await find('MÜLLER'), ['Müller Anna']);
      assert.deepEqual(await find('muller'), ['Müller Anna']);
      assert.deepEqual(await find('0%'), ['Anna 100%'], '% matches itself');
      assert.deepEqual(await find('a_n'), [], '_ matches itself (as a wildcard it would find Anna)');
      const muller = numbers.get('Müller Anna')!;
      assert.deepEqual(await find(`#${muller}`), ['Müller Anna']);
      // Bare digits also match ids that happen to hold them; the number's own reservation comes first.
      const byDigits = (await env.app.call('/api/admin-reservations-list', { q: String(muller) })).success().reservations;
      assert.equal(byDigits[0]?.name, 'Müller Anna');
      assert.deepEqual(await find(`＃${String(muller).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))}`), ['Müller Anna']);
      assert.deepEqual(await find(`#${muller}0`), [], 'a number is found exactly');
    });

    test('an exact number lists its reservation first, whatever the sort, in the list and the archive; ids and addresses holding the digits follow', async () => {
      const target = await reserve('番号 本人', 'exact-target@example.com');
      const n = target.reservationNumber!;
      // Strangers whose id or address holds the digits, newer and sorting before the target by name.
      await insertReservations(
        env.app.services.database.db,
        newerPending(
          [`res_9${n}1`, 'Aoki Ken', 'aoki@example.com'],
          ['res_exact_other', 'Abe Mai', `abe${n}@example.com`],
          [`res_8${n}2`, 'Ando Archive', 'ando@example.com'],
        ),
      );
      const fullWidth = String(n).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
      for (const q of [String(n), `#${n}`, fullWidth, ` ${n} `, `＃${fullWidth}`])
        for (const sort of [undefined, { by: 'name', order: 'asc' }, { by: 'createdAt', order: 'desc' }, { by: 'status' }] as const) {
          const listed = (
            await env.app.call('/api/admin-reservations-list', { q, ...(sort ? { sort } : {}), page: 1, pageSize: 2 })
          ).success();
          assert.equal(listed.reservations[0]?.number, n, `${q} ${JSON.stringify(sort)}`);
          const every = (await env.app.call('/api/admin-reservations-list', { q, ...(sort ? { sort } : {}) })).success().reservations;
          assert.equal(every[0]?.number, n, `${q} ${JSON.stringify(sort)}, unpaged`);
          if (!q.includes('#') && !q.includes('＃')) assert.ok(every.length >= 3, 'the other matches follow');
        }
      // In the archive, with the target archived after a stranger that holds its digits.
      (await env.app.call('/api/admin/reservations/archive', { ids: [{ id: target.reservationId, productSlug: 'kumo-vco-2' }] })).success();
      (await env.app.call('/api/admin/reservations/archive', { ids: [{ id: `res_8${n}2`, productSlug: 'kumo-vco-2' }] })).success();
      for (const sort of [undefined, { by: 'name', order: 'asc' }, { by: 'archivedAt', order: 'desc' }] as const) {
        const archived = (
          await env.app.call('/api/admin/reservations/archives/list', { q: String(n), ...(sort ? { sort } : {}) })
        ).success();
        assert.deepEqual(
          archived.reservations.map((r) => r.id),
          [target.reservationId, `res_8${n}2`],
          JSON.stringify(sort),
        );
      }
    });

    test('the archive lists take q too, folded the same way', async () => {
      const { reservationId, reservationNumber } = await reserve('アーカイブ 次郎', 'archived-jiro@example.com');
      (await env.app.call('/api/admin/reservations/archive', { ids: [{ id: reservationId, productSlug: 'kumo-vco-2' }] })).success();
      const archived = async (q: string) =>
        (await env.app.call('/api/admin/reservations/archives/list', { q })).success().reservations.map((r) => r.id);
      assert.deepEqual(await archived('あーかいぶ'), [reservationId]);
      assert.deepEqual(await archived(`#${reservationNumber}`), [reservationId]);
      assert.deepEqual(await archived('archived-jiro'), [reservationId]);
      assert.deepEqual(await archived('一番'), [], 'active ones are not in the archive');
      const { subscriptionId } = (
        await env.app.read(
          '/api/notify',
          await env.app.request('/api/notify', {
            method: 'POST',
            body: JSON.stringify({ email: 'Kept@Example.com', productSlug: 'kumo-vco-2' }),
          }),
        )
      ).success();
      (await env.app.call('/api/admin/notify/archive', { ids: [{ id: subscriptionId, productSlug: 'kumo-vco-2' }] })).success();
      const subscriptions = (await env.app.call('/api/admin/notify/archives/list', { q: 'ＫＥＰＴ' })).success().subscriptions;
      assert.deepEqual(
        subscriptions.map((s) => s.id),
        [subscriptionId],
      );
      const bad = await env.app.admin('/api/admin/reservations/archives/list', { q: 5 });
      assert.equal(bad.status, 400);
    });

    test('the migration numbers the reservations already stored in the order they were taken, and a number is never given twice', async () => {
      const db = await openFreshStore(dialect);
      try {
        const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
        assert.equal((await migrator.migrateTo('018-canonical-addresses')).error, undefined);
        const row = (id: string, createdAt: string, name: string) => ({
          id,
          name,
          email: `${id}@example.com`,
          product_slug: 'kumo-vco-2',
          status: 'pending',
          created_at: createdAt,
          updated_at: createdAt,
        });
        const before = db as unknown as Kysely<{ reservations: ReturnType<typeof row> }>;
        await before
          .insertInto('reservations')
          .values([
            row('res_c', '2026-03-03T00:00:00.000Z', 'Zoë Ｃ'),
            row('res_a', '2026-03-01T00:00:00.000Z', 'あべ'),
            row('res_b2', '2026-03-02T00:00:00.000Z', 'B'),
            row('res_b1', '2026-03-02T00:00:00.000Z', 'B'),
          ])
          .execute();
        await migrateToLatest(db as Kysely<unknown>);
        const numbered = await db.selectFrom('reservations').select(['id', 'number', 'name_fold']).orderBy('number').execute();
        assert.deepEqual(
          numbered.map((r) => [r.id, Number(r.number), r.name_fold]),
          [
            ['res_a', 1001, 'アベ'],
            ['res_b1', 1002, 'b'],
            ['res_b2', 1003, 'b'],
            ['res_c', 1004, 'zoec'],
          ],
        );
        const insert = (id: string) =>
          db
            .insertInto('reservations')
            .values({ ...row(id, '2026-03-04T00:00:00.000Z', 'n'), name_fold: 'n' })
            .execute();
        await insert('res_d');
        await db.deleteFrom('reservations').where('id', '=', 'res_d').execute();
        await insert('res_e');
        const numbers = await db.selectFrom('reservations').select(['id', 'number']).where('id', 'in', ['res_e']).execute();
        assert.deepEqual(
          numbers.map((r) => Number(r.number)),
          [1006],
          'the erased 1005 is not given again',
        );
      } finally {
        await db.destroy();
      }
    });
  });
}

if (DIALECTS.includes('postgres'))
  describe('reservation numbers across two service processes on one PostgreSQL', () => {
    let a: ServiceProcess;
    let b: ServiceProcess;
    before(async () => {
      [a, b] = await startTwoInstances();
    });
    after(async () => {
      await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    });

    test('100 reservations split between the instances: 100 numbers, none twice', async () => {
      const send = (i: number) => () =>
        (i % 2 ? a : b).request('/api/reservation', {
          method: 'POST',
          headers: { 'idempotency-key': `numbers-${i}` },
          body: JSON.stringify({ name: '客', email: `n${i}@example.com`, productSlug: 'kumo-vco-2' }),
        });
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => send(i)().catch(send(i))));
      const numbers = await Promise.all(
        answers.map(async (answer) => ((await answer.json()) as { reservationNumber: number }).reservationNumber),
      );
      assert.equal(new Set(numbers).size, 100);
      assert.ok(numbers.every((n) => Number.isInteger(n) && n >= 1001));
    });
  });
