import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allRoutes } from '../src/app.ts';
import type { EndpointPath } from '../src/client/endpoints.ts';
import { openApiPath } from '../src/api-reference/openapi-document.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { loadContract, type JsonSchema } from './helpers/openapi-contract.ts';

// SQL metacharacters in every string field of every write endpoint, on both dialects:
// free text is stored and returned exactly as given, ids and filters match only themselves (a `%`
// or `_` is no wildcard, a quote ends nothing), and no value is a 500.

const METACHARACTERS = [
  "O'Brien",
  "''",
  '"double" "quotes"',
  "x';--",
  '1; DROP TABLE reservations; --',
  "' OR '1'='1",
  '" OR ""="',
  '/* comment */',
  '*/ --',
  '%',
  '100%',
  '_',
  'a_c',
  '\\',
  '\\\\',
  "\\'",
  '\\"',
  '\\0',
  "E'\\x00'",
  '$1',
  '$$ dollar $$',
  '?',
  ':name',
  '@p1',
  '`backtick`',
  '[bracket]',
  'NULL',
  ';',
];

for (const dialect of DIALECTS) {
  describe(`SQL metacharacters (${dialect})`, () => {
    let app: TestApp;
    const slug = 'kumo-vco-2';
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => app.close());

    const post = async <P extends EndpointPath>(path: P, body: unknown) =>
      app.read(
        path,
        await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      );
    const admin = <P extends EndpointPath>(path: P, body: unknown) => app.call(path, body);
    const reserve = async (name: string, email = 'taro@example.com') =>
      (await post('/api/reservation', { name, email, productSlug: slug })).success().reservationId;
    const activeReservations = async (filter: object = {}) => (await admin('/api/admin-reservations-list', filter)).success().reservations;

    test('names and addresses are stored and returned verbatim', async () => {
      const ids = new Map<string, string>();
      // A name never holds an @ (src/reservations/public-routes.ts); notes below take every one.
      for (const name of METACHARACTERS.filter((text) => !text.includes('@'))) ids.set(name, await reserve(name));
      // NUL, like every control character, is refused in a name.
      const nul = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: 'a\u0000b', email: 'taro@example.com', productSlug: slug }),
      });
      assert.equal(nul.status, 400);
      const emails = ["o'neil_x@example.com", "'_'x@example.com", 'a_b+100@example.com'];
      for (const email of emails) ids.set(`email ${email}`, await reserve('email', email.toUpperCase()));
      const byId = new Map((await activeReservations()).map((r) => [r.id, r]));
      for (const [name, id] of ids) {
        if (name.startsWith('email ')) assert.equal(byId.get(id)?.email, name.slice('email '.length), name);
        else assert.equal(byId.get(id)?.name, name, name);
      }
      for (const email of emails) {
        const body = (await post('/api/notify', { email, productSlug: slug })).success();
        const listed = (await admin('/api/admin-notify-list', {})).success().subscriptions;
        assert.equal(listed.find((s) => s.id === body.subscriptionId)?.email, email);
      }
    });

    test('notes are stored and returned verbatim; a NUL in them is refused with 400', async () => {
      const id = await reserve('notes');
      for (const notes of [...METACHARACTERS, METACHARACTERS.join('\n'), `${"'".repeat(1000)}${'\\'.repeat(1000)}`]) {
        const body = (await admin('/api/admin-reservations-status', { id, productSlug: slug, status: 'pending', notes })).success();
        assert.equal(body.reservation.notes, notes);
        assert.equal((await activeReservations()).find((r) => r.id === id)?.notes, notes);
      }
      const nul = await admin('/api/admin-reservations-status', { id, productSlug: slug, status: 'pending', notes: 'a\u0000b' });
      assert.equal(nul.status, 400);
    });

    test('filters match literally: % and _ are no wildcards, quotes end nothing', async () => {
      const id = await reserve('filtered');
      assert.ok((await activeReservations({ productSlug: slug })).some((r) => r.id === id));
      for (const productSlug of [...METACHARACTERS, 'kumo%', '%vco%', '_umo-vco-2', 'kumo-vco-_', `${slug}' OR '1'='1`, `${slug}'--`]) {
        for (const path of ['/api/admin-reservations-list', '/api/admin-notify-list'] as const) {
          const body = (await admin(path, { productSlug })).success();
          assert.deepEqual('reservations' in body ? body.reservations : body.subscriptions, [], `${path} ${productSlug}`);
        }
      }
      // Archived lists: a status filter takes any string, and still matches only itself.
      await admin('/api/admin/reservations/archive', { ids: [{ id, productSlug: slug }] });
      const archived = async (filter: object) => (await admin('/api/admin/reservations/archives/list', filter)).success();
      assert.equal((await archived({ status: 'pending', productSlug: slug })).total, 1);
      for (const value of [...METACHARACTERS, 'pend%', '_ending', 'pending%', "pending' OR '1'='1"]) {
        assert.equal((await archived({ status: value })).total, 0, `status ${value}`);
        assert.equal((await archived({ productSlug: value })).total, 0, `productSlug ${value}`);
        assert.equal((await admin('/api/admin/notify/archives/list', { status: value, productSlug: value })).success().total, 0, value);
      }
      // A NUL cannot be stored, so it cannot match: refused, not a 500.
      for (const path of [
        '/api/admin-reservations-list',
        '/api/admin/reservations/archives/list',
        '/api/admin/notify/archives/list',
      ] as const) {
        assert.equal((await admin(path, { productSlug: 'a\u0000' })).status, 400, path);
      }
    });

    test('ids match only themselves: a wildcard or an injected condition finds, changes and deletes nothing', async () => {
      const id = await reserve('target');
      const subscription = (await post('/api/notify', { email: 'target@example.com', productSlug: slug })).success().subscriptionId;
      const values = [...METACHARACTERS, 'res_%', `${id.slice(0, -1)}_`, `${id}' OR '1'='1`, "' OR 1=1 --", `${id}%`];
      for (const value of values) {
        for (const body of [
          { id: value, productSlug: slug },
          { id, productSlug: value },
        ]) {
          assert.equal((await admin('/api/admin-reservations-status', { ...body, status: 'cancelled' })).status, 404, JSON.stringify(body));
          assert.equal(
            (await admin('/api/admin-notify-status', { ...body, id: body.id === id ? subscription : value, status: 'unsubscribed' }))
              .status,
            404,
          );
          assert.equal((await admin('/api/admin-reservations-delete', body)).status, 404, JSON.stringify(body));
          const archive = (await admin('/api/admin/reservations/archive', { ids: [body] })).success();
          assert.deepEqual(archive.archivedIds, []);
          assert.deepEqual(archive.errors, [{ id: body.id, error: 'Reservation not found', code: 'reservation_not_found' }]);
        }
        assert.equal((await admin('/api/admin/notify/send', { productSlug: value })).status, 404, value);
      }
      // Everything is as it was.
      assert.equal((await activeReservations()).find((r) => r.id === id)?.status, 'pending');
      const subscriptions = (await admin('/api/admin-notify-list', {})).success().subscriptions;
      assert.equal(subscriptions.find((s) => s.id === subscription)?.status, 'pending');
    });

    test('every string field of every write endpoint takes every metacharacter without a 500', async () => {
      const contract = await loadContract(app.url);
      const reservation = await reserve('sweep');
      const subscription = (await post('/api/notify', { email: 'sweep@example.com', productSlug: slug })).success().subscriptionId;
      const rowsBefore = await snapshot(app);
      let sent = 0;
      for (const route of allRoutes(app.services).filter((r) => r.method === 'POST' && r.body)) {
        const schema = contract.document.paths[openApiPath(route.path)]?.post?.requestBody?.content['application/json']?.schema;
        const properties = Object.entries(schema?.properties ?? {});
        const id = route.path.includes('notify') ? subscription : reservation;
        // A body that would pass, so each field is reached with the others valid.
        const valid: Record<string, unknown> = Object.fromEntries(
          properties.map(([name, property]) => [name, plausible(name, property, { id, productSlug: slug })]),
        );
        for (const [name] of properties) {
          for (const value of [...METACHARACTERS, 'a\u0000b']) {
            const bodies =
              name === 'ids'
                ? [
                    { ...valid, ids: [{ id: value, productSlug: slug }] },
                    { ...valid, ids: [{ id, productSlug: value }] },
                  ]
                : [{ ...valid, [name]: value }];
            for (const body of bodies) {
              const response = route.admin
                ? await app.admin(route.path, body)
                : await app.request(route.path, { method: 'POST', body: JSON.stringify(body) });
              sent += 1;
              assert.ok(
                response.status < 500,
                `${route.path} ${name}=${JSON.stringify(value)}: ${response.status} ${await response.text()}`,
              );
            }
          }
        }
      }
      assert.ok(sent > 300, `${sent} requests`);
      // No wildcard reached a row it did not name: every record is as it was (new ones aside).
      const rowsAfter = await snapshot(app);
      for (const [key, row] of rowsBefore) assert.deepEqual(rowsAfter.get(key), row, key);
      assert.deepEqual(
        app.logs.filter((line) => (line.level as number) >= 50),
        [],
      );
    });

    test('search keywords are logged verbatim; a NUL is kept as U+FFFD without losing the other searches', async () => {
      const keywords = [...METACHARACTERS, 'a\u0000b'];
      const queries: string[] = [];
      for (const q of keywords) {
        const response = await app.request(`/api/search?q=${encodeURIComponent(q)}`);
        assert.equal(response.status, 200, q);
        queries.push((await app.read('/api/search', response)).success().query);
      }
      const logs = (await app.read('/api/keyword-logs', await app.request('/api/keyword-logs?limit=5000'))).success().logs;
      const logged = logs.map((l) => l.keyword);
      for (const query of queries) assert.ok(logged.includes(query.replace('\u0000', '\ufffd')), JSON.stringify(query));
      assert.ok(logged.includes("x';--") && logged.includes('a\ufffdb'));
      const top = (await admin('/api/admin-dashboard-stats', {})).success().searches.topKeywords;
      assert.ok(top.every((entry) => typeof entry.keyword === 'string'));
      assert.deepEqual(
        app.logs.filter((line) => (line.level as number) >= 40 && String(line.msg).startsWith('keyword log')),
        [],
      );
    });

    test('the catalog filter matches % and _ literally', async () => {
      for (const q of ['%', '_', '%%', 'kumo%', '_umo', "' OR '1'='1"]) {
        const body = (await app.read('/api/products', await app.request(`/api/products?q=${encodeURIComponent(q)}`))).success();
        assert.equal(body.total, 0, q);
      }
    });
  });
}

/** A value of the right kind for a body field, so that the other fields are valid while one is tested. */
function plausible(name: string, property: JsonSchema, record: { id: string; productSlug: string }): unknown {
  const enumValues = property.enum ?? property.anyOf?.flatMap((p) => p.enum ?? []) ?? [];
  if (enumValues.length > 0) return enumValues[0];
  if (name === 'ids') return [record];
  if (name === 'id' || name === 'productSlug') return record[name];
  if (name === 'email') return 'sweep@example.com';
  if (name === 'page' || name === 'pageSize') return 1;
  return 'text';
}

/** Every reservation and subscription: id → status, product and whether archived. */
async function snapshot(app: TestApp): Promise<Map<string, string>> {
  const db = app.services.database.db;
  const rows = [
    ...(await db.selectFrom('reservations').select(['id', 'status', 'product_slug', 'archived_at']).execute()),
    ...(await db.selectFrom('subscriptions').select(['id', 'status', 'product_slug', 'archived_at']).execute()),
  ];
  return new Map(rows.map((row) => [row.id, `${row.status} ${row.product_slug} ${row.archived_at === null ? 'active' : 'archived'}`]));
}
