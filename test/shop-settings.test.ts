import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';

// The shop's own name and contact over real HTTP on both dialects: read, saved field by field with
// its limits, never lost to a colleague's save (expectedUpdatedAt), and shared by every instance
// on one store.

const EMPTY = { name: '', contactEmail: '', phone: '', address: '', hours: '', updatedAt: null };

for (const dialect of DIALECTS) {
  describe(`shop settings (${dialect})`, () => {
    let app: TestApp;
    let other: TestApp;
    before(async () => {
      app = await startTestApp({ dialect });
      // A second instance on the same store.
      other = await startTestApp({ dialect, env: { DATABASE_URL: app.env.DATABASE_URL! } });
    });
    after(async () => {
      await other.close();
      await app.close();
    });

    const get = (on = app) => on.call('/api/admin/shop/get', {});
    const update = (body: unknown, on = app) => on.call('/api/admin/shop/update', body);

    test('unset at first: every field empty, updatedAt null; 401 before the body is read', async () => {
      assert.deepEqual((await get()).success(), { success: true, shop: EMPTY });
      for (const path of ['/api/admin/shop/get', '/api/admin/shop/update']) {
        for (const body of ['not json', JSON.stringify({ name: 5 }), 'x'.repeat(70 * 1024)]) {
          const response = await app.request(path, { method: 'POST', headers: { authorization: 'Bearer wrong' }, body });
          assert.equal(response.status, 401);
          assert.deepEqual(await response.json(), { success: false, error: 'Unauthorized', code: 'unauthorized' });
        }
      }
      assert.equal((await app.admin('/api/admin/shop/update', { name: 'x'.repeat(70 * 1024) })).status, 413);
      assert.equal((await update([])).failure(400).error, 'Invalid JSON body');
    });

    test('a save keeps the fields left out, trims each, keeps the address’s lines; another instance reads it at once', async () => {
      const first = (await update({ name: '  tenpo モジュラー  ', contactEmail: ' shop@tenpo.example ', phone: '03-1234-5678' })).success()
        .shop;
      assert.deepEqual(
        { ...first, updatedAt: undefined },
        {
          name: 'tenpo モジュラー',
          contactEmail: 'shop@tenpo.example',
          phone: '03-1234-5678',
          address: '',
          hours: '',
          updatedAt: undefined,
        },
      );
      assert.ok(Date.parse(first.updatedAt!) > 0);
      const second = (
        await update({ address: '〒150-0001\r\n  東京都渋谷区神宮前1-2-3  \n\n\nテンポビル 2F\n', hours: '11:00〜19:00（水曜定休）' })
      ).success().shop;
      assert.equal(second.name, 'tenpo モジュラー', 'kept');
      assert.equal(second.address, '〒150-0001\n東京都渋谷区神宮前1-2-3\nテンポビル 2F');
      assert.ok(Date.parse(second.updatedAt!) > Date.parse(first.updatedAt!));
      assert.deepEqual((await get(other)).success().shop, second);
      const cleared = (await update({ phone: '', hours: '' }, other)).success().shop;
      assert.deepEqual([cleared.phone, cleared.hours, cleared.name], ['', '', 'tenpo モジュラー']);
    });

    test('limits: 400 Invalid parameters naming every field at fault; nothing written', async () => {
      const before = (await get()).success().shop;
      const cases: [Record<string, unknown>, string[]][] = [
        [{ name: 'x'.repeat(101) }, ['name']],
        [{ name: '一'.repeat(100) }, []],
        [{ name: 'tenpo\nBcc: x@example.com' }, ['name']],
        [{ name: 5 }, ['name']],
        [{ contactEmail: 'not an address' }, ['contactEmail']],
        [{ contactEmail: 'a@b' }, ['contactEmail']],
        [{ contactEmail: null }, ['contactEmail']],
        [{ phone: '03-1234-5678 ext.9' }, ['phone']],
        [{ phone: '0'.repeat(31) }, ['phone']],
        [{ phone: '０３‐１２３４' }, ['phone']],
        [{ phone: '+81 (3) 1234-5678' }, []],
        [{ address: '東'.repeat(301) }, ['address']],
        [{ address: '東'.repeat(300) }, []],
        [{ hours: 'x'.repeat(201) }, ['hours']],
        [{ hours: '平日\n土日' }, ['hours']],
        [{ name: 'a\u0000b' }, ['name']],
        [{ expectedUpdatedAt: 'yesterday' }, ['expectedUpdatedAt']],
        [{ name: 'x'.repeat(101), phone: 'abc', hours: 7 }, ['name', 'phone', 'hours']],
      ];
      for (const [body, fields] of cases) {
        const answer = await update(body);
        if (fields.length === 0) {
          answer.success();
          continue;
        }
        const failure = answer.failure(400);
        assert.deepEqual([failure.error, failure.code], ['Invalid parameters', 'invalid_parameters'], JSON.stringify(body));
        assert.deepEqual(
          failure.details?.map((d) => d.field),
          fields,
          JSON.stringify(body),
        );
      }
      await update({ name: before.name, phone: before.phone, address: before.address, hours: before.hours });
    });

    test('expectedUpdatedAt: a colleague’s save since → 409 and nothing written; the same save from the fresh value passes', async () => {
      const seen = (await get()).success().shop;
      const colleague = (await update({ hours: '10:00〜18:00' }, other)).success().shop;
      const stale = (await update({ hours: '12:00〜20:00', expectedUpdatedAt: seen.updatedAt })).failure(409);
      assert.deepEqual(stale, { success: false, error: 'Shop settings were changed by someone else', code: 'changed_by_someone_else' });
      assert.equal((await get()).success().shop.hours, '10:00〜18:00', 'nothing written');
      const fresh = (await update({ hours: '12:00〜20:00', expectedUpdatedAt: colleague.updatedAt })).success().shop;
      assert.equal(fresh.hours, '12:00〜20:00');
      // The same instant written another way is the same time.
      const offset = new Date(Date.parse(fresh.updatedAt!)).toISOString().replace('Z', '+00:00');
      (await update({ hours: '12:00〜21:00', expectedUpdatedAt: offset })).success();
      // null means "never saved", which is no longer so.
      (await update({ hours: 'x', expectedUpdatedAt: null })).failure(409);
    });

    test('ten saves at once from the same screen, on two instances: exactly one is written', async () => {
      const seen = (await get()).success().shop;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => update({ name: `店 ${i}`, expectedUpdatedAt: seen.updatedAt }, i % 2 ? other : app)),
      );
      const statuses = answers.map((answer) => answer.status);
      assert.equal(statuses.filter((status) => status === 200).length, 1, statuses.join());
      assert.equal(statuses.filter((status) => status === 409).length, 9);
      const winner = answers.find((answer) => answer.status === 200)!.success().shop;
      assert.deepEqual((await get()).success().shop, winner);
    });
  });
}
