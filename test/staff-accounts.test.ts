import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allRoutes } from '../src/app.ts';
import type { EndpointPath } from '../src/client/endpoints.ts';
import type { Answer } from './helpers/answers.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';

// Staff accounts over real HTTP, on both databases: the bearer token creates the first owner; each
// person signs in with an address and a password and gets a session cookie that every admin route
// takes in place of the token (from the service's own pages only); owners manage the accounts and
// alone reach the owner-only routes; a disabled account is signed out at its next request; sessions
// slide (12 hours after the last request, 7 days at most); failed sign-ins are counted per client
// and per address. Every request comes from a client address of its own (behind one trusted proxy)
// unless a test says otherwise, so the per-client count is the test's own.

const BASE = 'https://shop.example.jp';
const OWNER = { email: 'owner@example.jp', name: '店長 一郎', role: 'owner', password: 'owner password 1' } as const;
const UNAUTHORIZED = { success: false, error: 'Unauthorized', code: 'unauthorized' };
const REFUSED = { success: false, error: 'Invalid email or password', code: 'invalid_email_or_password' };
const FORBIDDEN = { success: false, error: 'Forbidden', code: 'forbidden' };

let nextClient = 1;
const freshClient = () => `198.51.100.${nextClient++ % 250}`;

for (const dialect of DIALECTS) {
  describe(`staff accounts (${dialect})`, () => {
    let app: TestApp;
    // The service's clock, which a test moves; it starts at the real time, as the writes it does not govern use.
    const start = new Date();
    const clock = { now: start };
    let adminRoutes: { path: string; method: 'GET' | 'POST' }[];

    before(async () => {
      app = await startTestApp({
        dialect,
        now: () => clock.now,
        env: { PUBLIC_BASE_URL: BASE, TRUST_PROXY: 'true', ADMIN_AUTH_FAILURES_PER_MINUTE: '5', RATE_LIMIT_PER_MINUTE: '0' },
      });
      adminRoutes = allRoutes(app.services)
        .filter((route) => route.admin)
        .map(({ path, method }) => ({ path, method }));
      (await app.call('/api/admin/staff/create', OWNER)).success();
    });
    after(() => app.close());

    /** A POST from a browser: its cookie and Origin, from a client address of its own unless told. */
    function post(path: string, body: unknown, options: { cookie?: string; origin?: string; from?: string } = {}) {
      const headers: Record<string, string> = { 'x-forwarded-for': options.from ?? freshClient() };
      if (options.cookie) headers.cookie = options.cookie;
      if (options.origin) headers.origin = options.origin;
      return app.request(path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
    }
    async function read<P extends EndpointPath>(path: P, body: unknown, options: Parameters<typeof post>[2] = {}): Promise<Answer<P>> {
      return app.read(path, await post(path, body, options));
    }
    /** Signs in; the cookie as the browser sends it back. */
    async function signIn(email: string, password: string): Promise<string> {
      const answer = await read('/api/admin/session', { email, password }, { origin: BASE });
      answer.success();
      return answer.headers.get('set-cookie')!.split(';')[0]!;
    }
    async function createStaff(name: string, role: 'owner' | 'staff' = 'staff') {
      const email = `${name.toLowerCase().replaceAll(' ', '.')}@example.jp`;
      const password = `${name} password!`;
      const { staff } = (await app.call('/api/admin/staff/create', { email, name, role, password })).success();
      return { ...staff, password, cookie: await signIn(email, password) };
    }
    const asCookie =
      (cookie: string) =>
      <P extends EndpointPath>(path: P, body: unknown = {}) =>
        read(path, body, { cookie, origin: BASE });

    test('the bearer token created the first owner; an account is answered without its password, which is stored as a scrypt hash only', async () => {
      const { staff } = (await app.call('/api/admin/staff/list', {})).success();
      assert.equal(staff.length, 1);
      assert.deepEqual(
        { ...staff[0], id: undefined, createdAt: undefined },
        { id: undefined, createdAt: undefined, email: OWNER.email, name: OWNER.name, role: 'owner', disabled: false, lastSignInAt: null },
      );
      assert.match(staff[0]!.id, /^stf_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const [row] = await app.services.database.db.selectFrom('staff').select('password_hash').execute();
      assert.match(row!.password_hash, /^\$scrypt\$ln=15,r=8,p=3\$[\w-]{22}\$[\w-]{43}$/);
      assert.ok(!row!.password_hash.includes(OWNER.password));
    });

    test('signing in sets the session cookie (HttpOnly, SameSite=Strict, Path=/, Secure for an https service); who is signed in', async () => {
      const answer = await read('/api/admin/session', { email: 'OWNER@Example.JP', password: OWNER.password });
      const { staff } = answer.success();
      assert.equal(staff.email, OWNER.email);
      assert.equal(staff.lastSignInAt, clock.now.toISOString());
      assert.match(
        answer.headers.get('set-cookie')!,
        /^tenpo_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/; Secure; Max-Age=604800$/,
      );
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
      assert.deepEqual((await asCookie(cookie)('/api/admin/session/get')).success().staff, staff);
      assert.equal((await app.call('/api/admin/session/get', {})).success().staff, null, 'the bearer token is no one’s account');
      const sessions = await app.services.database.db.selectFrom('staff_sessions').select('id').execute();
      assert.ok(
        sessions.every((session) => !cookie.includes(session.id)),
        'the table keys sessions by a hash, never the token',
      );
    });

    test('every admin route takes the cookie in place of the token; once the session ends, each is 401 before its body is read', async () => {
      const cookie = await signIn(OWNER.email, OWNER.password);
      for (const { path, method } of adminRoutes) {
        const headers = { cookie, 'x-forwarded-for': freshClient() };
        const response = await app.request(path, method === 'GET' ? { headers } : { method, headers, body: '{"not json' });
        assert.notEqual(response.status, 401, `${method} ${path}`);
        assert.ok(response.status < 500, `${method} ${path}: ${response.status}`);
      }
      const end = await read('/api/admin/session/end', {}, { cookie, origin: BASE });
      end.success();
      assert.equal(end.headers.get('set-cookie'), 'tenpo_session=; HttpOnly; SameSite=Strict; Path=/; Secure; Max-Age=0');
      for (const { path, method } of adminRoutes) {
        const headers = { cookie, 'x-forwarded-for': freshClient() };
        const response = await app.request(path, method === 'GET' ? { headers } : { method, headers, body: '{"not json' });
        assert.equal(response.status, 401, `${method} ${path}`);
        assert.deepEqual(await response.json(), UNAUTHORIZED, `${method} ${path}`);
      }
      for (const cookie of ['tenpo_session=', 'tenpo_session=x', `tenpo_session=${'A'.repeat(43)}`, 'other=1'])
        assert.deepEqual((await read('/api/admin/session/get', {}, { cookie, origin: BASE })).failure(401), UNAUTHORIZED, cookie);
    });

    test('a signed-in request from another site’s page is refused with 403, nothing done; from the service’s own pages, or without Origin, it passes', async () => {
      const cookie = await signIn(OWNER.email, OWNER.password);
      const host = new URL(app.url).origin;
      // The Host's host and port in another scheme is another site too (the service is reached over http here).
      const otherScheme = host.replace(/^http:/, 'https:');
      for (const origin of [
        'https://evil.example',
        `${BASE}.evil.example`,
        'http://shop.example.jp',
        'null',
        'http://localhost:34434',
        otherScheme,
      ]) {
        const created = await read(
          '/api/admin/staff/create',
          { email: 'csrf@example.jp', name: 'x', role: 'owner', password: 'p'.repeat(12) },
          { cookie, origin },
        );
        assert.deepEqual(created.failure(403), { success: false, error: 'Origin not allowed', code: 'origin_not_allowed' }, origin);
        // A form another site posts sends its body as a form: refused all the same.
        const form = await app.request('/api/admin/session/end', {
          method: 'POST',
          headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshClient() },
          body: 'a=1',
        });
        assert.equal(form.status, 403, origin);
      }
      assert.ok(!(await app.call('/api/admin/staff/list', {})).success().staff.some((s) => s.email === 'csrf@example.jp'));
      assert.equal((await read('/api/admin/session/get', {}, { cookie, origin: host })).status, 200, 'the Host’s own origin');
      assert.equal((await read('/api/admin/session/get', {}, { cookie, origin: BASE })).status, 200, 'PUBLIC_BASE_URL’s origin');
      assert.equal((await read('/api/admin/session/get', {}, { cookie })).status, 200, 'no Origin (the same origin’s GET, a script)');
      // Signing in from another site's page is refused too: it would sign the browser in as someone else.
      const login = await read('/api/admin/session', { email: OWNER.email, password: OWNER.password }, { origin: 'https://evil.example' });
      assert.equal(login.failure(403).code, 'origin_not_allowed');
      assert.equal(login.headers.get('set-cookie'), null);
    });

    test('a wrong address, a wrong password and a disabled account get one answer; a disabled account’s open session is signed out at its next request', async () => {
      const clerk = await createStaff('Sato Hanako');
      const attempts = [
        { email: 'nobody@example.jp', password: clerk.password },
        { email: clerk.email, password: `${clerk.password}x` },
        { email: clerk.email, password: '' },
      ];
      for (const attempt of attempts) {
        const answer = await read('/api/admin/session', attempt);
        assert.deepEqual(answer.failure(401), REFUSED, attempt.email);
        assert.equal(answer.headers.get('set-cookie'), null);
      }
      assert.equal((await asCookie(clerk.cookie)('/api/admin-reservations-list')).status, 200);
      (await app.call('/api/admin/staff/update', { id: clerk.id, disabled: true })).success();
      assert.deepEqual((await asCookie(clerk.cookie)('/api/admin-reservations-list')).failure(401), UNAUTHORIZED);
      assert.deepEqual((await read('/api/admin/session', { email: clerk.email, password: clerk.password })).failure(401), REFUSED);
      // Enabled again, it signs in anew: the old session stays ended.
      (await app.call('/api/admin/staff/update', { id: clerk.id, disabled: false })).success();
      assert.equal((await asCookie(clerk.cookie)('/api/admin-reservations-list')).status, 401);
      assert.equal((await asCookie(await signIn(clerk.email, clerk.password))('/api/admin-reservations-list')).status, 200);
    });

    test('a staff account gets 403 Forbidden on the owner-only routes, before its body is read; an owner and the token pass', async () => {
      const clerk = await createStaff('Suzuki Jiro');
      const owner = await createStaff('Tanaka Owner', 'owner');
      const ownerOnly = allRoutes(app.services).filter((route) => route.ownerOnly);
      assert.deepEqual(ownerOnly.map((route) => route.path).sort(), [
        '/api/admin-reservations-delete',
        '/api/admin/notify/export',
        '/api/admin/personal-data/erase',
        '/api/admin/personal-data/export',
        '/api/admin/reservations/export',
        '/api/admin/shop/update',
        '/api/admin/staff/create',
        '/api/admin/staff/list',
        '/api/admin/staff/update',
      ]);
      for (const { path } of ownerOnly) {
        const response = await post(path, '{"not json', { cookie: clerk.cookie, origin: BASE });
        assert.equal(response.status, 403, path);
        assert.deepEqual(await response.json(), FORBIDDEN, path);
        assert.equal((await post(path, '{"not json', { cookie: owner.cookie, origin: BASE })).status, 400, `${path} for an owner`);
      }
      assert.equal(
        (await asCookie(clerk.cookie)('/api/admin/personal-data/export', { email: 'a@example.jp' })).failure(403).code,
        'forbidden',
      );
      // One rule for customers' personal data in bulk: the CSV of a whole list is an owner's to take, as a customer's export is.
      for (const path of ['/api/admin/reservations/export', '/api/admin/notify/export']) {
        assert.equal((await post(path, '{}', { cookie: clerk.cookie, origin: BASE })).status, 403, path);
        const csv = await post(path, '{}', { cookie: owner.cookie, origin: BASE });
        assert.equal(csv.status, 200, `${path} for an owner`);
        assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
        await csv.arrayBuffer();
      }
      // Everything else is a staff account's work.
      assert.equal((await asCookie(clerk.cookie)('/api/admin-dashboard-stats')).status, 200);
      assert.equal((await asCookie(clerk.cookie)('/api/admin/messages/list')).status, 200);
      // The shop's settings are read by everyone (what the emails say, and the console's warning while unset).
      assert.equal((await asCookie(clerk.cookie)('/api/admin/shop/get')).status, 200);
      // A demoted owner loses the owner's routes at its next request; promoted, it gains them.
      (await app.call('/api/admin/staff/update', { id: owner.id, role: 'staff' })).success();
      assert.equal((await asCookie(owner.cookie)('/api/admin/staff/list')).failure(403).code, 'forbidden');
      (await app.call('/api/admin/staff/update', { id: clerk.id, role: 'owner' })).success();
      assert.equal((await asCookie(clerk.cookie)('/api/admin/staff/list')).status, 200);
    });

    test('staff/create and staff/update check every field, and never answer or log a password', async () => {
      const valid = { email: 'new.clerk@example.jp', name: '新人', role: 'staff', password: 'twelve chars' };
      const cases: [object, string][] = [
        [{ ...valid, password: 'eleven char' }, 'password'],
        [{ ...valid, password: 'p'.repeat(201) }, 'password'],
        [{ ...valid, password: 'New.Clerk@Example.jp' }, 'password'],
        [{ ...valid, password: ' '.repeat(12) }, 'password'],
        [{ ...valid, password: '\u3000'.repeat(12) }, 'password'],
        [{ ...valid, password: 12345678901234 }, 'password'],
        [{ ...valid, password: 'ok password \ud800' }, 'password'],
        [{ ...valid, email: 'not an address' }, 'email'],
        [{ ...valid, email: 'x'.repeat(250) + '@example.jp' }, 'email'],
        [{ ...valid, name: '  ' }, 'name'],
        [{ ...valid, name: 'n'.repeat(101) }, 'name'],
        [{ ...valid, name: '二行\nの名前' }, 'name'],
        [{ ...valid, role: 'admin' }, 'role'],
        [{ ...valid, role: undefined }, 'role'],
      ];
      for (const [body, field] of cases) {
        const failure = (await app.call('/api/admin/staff/create', body)).failure(400);
        assert.equal(failure.error, 'Invalid parameters', JSON.stringify(body));
        assert.deepEqual(
          failure.details?.map((detail) => detail.field),
          [field],
          JSON.stringify(body),
        );
      }
      assert.equal((await app.call('/api/admin/staff/create', [])).failure(400).code, 'invalid_json_body');
      const { staff } = (
        await app.call('/api/admin/staff/create', { ...valid, email: ' New.Clerk@Example.jp ', name: ' 新人 ' })
      ).success();
      assert.deepEqual([staff.email, staff.name, staff.role], ['New.Clerk@Example.jp', '新人', 'staff']);
      assert.deepEqual((await app.call('/api/admin/staff/create', { ...valid, email: 'NEW.CLERK@example.jp' })).failure(409), {
        success: false,
        error: 'Staff email already exists',
        code: 'staff_email_exists',
      });
      for (const [body, field] of [
        [{ id: staff.id, password: 'short' }, 'password'],
        [{ id: staff.id, password: 'NEW.CLERK@EXAMPLE.JP' }, 'password'],
        [{ id: staff.id, disabled: 'yes' }, 'disabled'],
        [{ id: staff.id, role: 'boss' }, 'role'],
        [{ id: staff.id, name: '' }, 'name'],
        [{ name: 'x' }, 'id'],
      ] as const) {
        const failure = (await app.call('/api/admin/staff/update', body)).failure(400);
        assert.deepEqual(
          failure.details?.map((detail) => detail.field),
          [field],
          JSON.stringify(body),
        );
      }
      assert.deepEqual((await app.call('/api/admin/staff/update', { id: 'stf_nobody' })).failure(404), {
        success: false,
        error: 'Staff not found',
        code: 'staff_not_found',
      });
      const logged = JSON.stringify(app.logs);
      for (const password of [valid.password, OWNER.password]) assert.ok(!logged.includes(password), password);
      for (const account of (await app.call('/api/admin/staff/list', {})).success().staff)
        assert.deepEqual(Object.keys(account).sort(), ['createdAt', 'disabled', 'email', 'id', 'lastSignInAt', 'name', 'role']);
    });

    test('an owner resets a password: the account’s sessions end and only the new password signs in', async () => {
      const clerk = await createStaff('Ito Saburo');
      (await app.call('/api/admin/staff/update', { id: clerk.id, password: 'a brand new one' })).success();
      assert.equal((await asCookie(clerk.cookie)('/api/admin/session/get')).status, 401);
      assert.deepEqual((await read('/api/admin/session', { email: clerk.email, password: clerk.password })).failure(401), REFUSED);
      await signIn(clerk.email, 'a brand new one');
      // An owner resetting their own password stays signed in where they asked from.
      const owner = await createStaff('Kato Owner', 'owner');
      const elsewhere = await signIn(owner.email, owner.password);
      (await asCookie(owner.cookie)('/api/admin/staff/update', { id: owner.id, password: 'owner’s new password' })).success();
      assert.equal((await asCookie(owner.cookie)('/api/admin/session/get')).status, 200);
      assert.equal((await asCookie(elsewhere)('/api/admin/session/get')).status, 401);
    });

    test('one’s own password: the current one must be right; the other sessions end, this one stays; the token has none', async () => {
      const clerk = await createStaff('Yamamoto Shiro');
      const elsewhere = await signIn(clerk.email, clerk.password);
      const change = asCookie(clerk.cookie);
      assert.deepEqual((await change('/api/admin/staff/password', { current: 'wrong password', next: 'my next password' })).failure(400), {
        success: false,
        error: 'Current password is wrong',
        code: 'current_password_wrong',
      });
      for (const next of ['short', clerk.email.toUpperCase(), 'x'.repeat(201)]) {
        const failure = (await change('/api/admin/staff/password', { current: clerk.password, next })).failure(400);
        assert.deepEqual(
          failure.details?.map((detail) => detail.field),
          ['next'],
          next,
        );
      }
      (await change('/api/admin/staff/password', { current: clerk.password, next: 'my next password' })).success();
      assert.equal((await change('/api/admin/session/get')).status, 200);
      assert.equal((await asCookie(elsewhere)('/api/admin/session/get')).status, 401);
      assert.deepEqual((await read('/api/admin/session', { email: clerk.email, password: clerk.password })).failure(401), REFUSED);
      await signIn(clerk.email, 'my next password');
      assert.deepEqual((await app.call('/api/admin/staff/password', { current: 'x', next: 'my next password' })).failure(403), FORBIDDEN);
    });

    test('at least one enabled owner remains: the last is neither demoted nor disabled, even by two owners demoting each other at once', async () => {
      const { staff } = (await app.call('/api/admin/staff/list', {})).success();
      // Every enabled owner but one is demoted: one remains.
      const [first, ...others] = staff.filter((s) => s.role === 'owner' && !s.disabled);
      for (const account of others) (await app.call('/api/admin/staff/update', { id: account.id, role: 'staff' })).success();
      const REQUIRED = { success: false, error: 'At least one owner is required', code: 'owner_required' };
      assert.deepEqual((await app.call('/api/admin/staff/update', { id: first!.id, role: 'staff' })).failure(409), REQUIRED);
      assert.deepEqual((await app.call('/api/admin/staff/update', { id: first!.id, disabled: true })).failure(409), REQUIRED);
      const second = await createStaff('Second Owner', 'owner');
      const answers = await Promise.all([
        app.admin('/api/admin/staff/update', { id: first!.id, role: 'staff' }),
        app.admin('/api/admin/staff/update', { id: second.id, disabled: true }),
      ]);
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
      const owners = (await app.call('/api/admin/staff/list', {})).success().staff.filter((s) => s.role === 'owner' && !s.disabled);
      assert.equal(owners.length, 1);
      // Put back as it was for the tests after.
      for (const id of [first!.id, second.id])
        (await app.call('/api/admin/staff/update', { id, role: 'owner', disabled: false })).success();
    });

    test('a session ends 12 hours after its last request, and 7 days after it began however busy', async () => {
      const clerk = await createStaff('Nakamura Goro');
      const get = () => asCookie(clerk.cookie)('/api/admin/session/get');
      const hours = (n: number) => (clock.now = new Date(clock.now.getTime() + n * 3_600_000));
      try {
        hours(11.9);
        assert.equal((await get()).status, 200, 'within 12 hours of signing in');
        hours(11.9);
        assert.equal((await get()).status, 200, 'within 12 hours of the last request');
        hours(12);
        assert.equal((await get()).status, 401, '12 hours idle');
        const busy = await signIn(clerk.email, clerk.password);
        for (let half = 0; half < 14; half++) {
          hours(11.9);
          assert.equal((await asCookie(busy)('/api/admin/session/get')).status, 200, `after ${(half + 1) * 11.9} hours`);
        }
        hours(1.5);
        assert.equal((await asCookie(busy)('/api/admin/session/get')).status, 401, '7 days after it began');
      } finally {
        clock.now = start;
      }
    });

    test('every change in a record’s history, and every retry of its messages, names the account that made it; the token’s and the customer’s none', async () => {
      const aiko = await createStaff('Mori Aiko');
      const ken = await createStaff('Hayashi Ken');
      const asAiko = asCookie(aiko.cookie);
      const asKen = asCookie(ken.cookie);
      const PRODUCT = 'kumo-vco-2';
      const reserved = await app.read(
        '/api/reservation',
        await post('/api/reservation', { name: '客 太郎', email: 'kyaku@example.com', productSlug: PRODUCT }),
      );
      const id = reserved.success().reservationId;
      (await asAiko('/api/admin-reservations-status', { id, productSlug: PRODUCT, status: 'confirmed' })).success();
      (await asKen('/api/admin-reservations-status', { id, productSlug: PRODUCT, status: 'confirmed', notes: '入金確認済み' })).success();
      (await app.call('/api/admin-reservations-status', { id, productSlug: PRODUCT, status: 'fulfilled' })).success();
      (await asAiko('/api/admin/reservations/archive', { ids: [{ id, productSlug: PRODUCT }] })).success();
      (await asKen('/api/admin/reservations/unarchive', { ids: [{ id, productSlug: PRODUCT }] })).success();
      // Its chat notice given up (a chat notice is never superseded), then sent again.
      const [notice] = await app.services.database.db
        .selectFrom('outbox')
        .select('id')
        .where('record_id', '=', id)
        .where('channel', '=', 'chat')
        .execute();
      await app.services.database.db.updateTable('outbox').set({ status: 'dead' }).where('id', '=', notice!.id).execute();
      assert.deepEqual((await asKen('/api/admin/messages/retry', { ids: [notice!.id] })).success().retriedIds, [notice!.id]);

      const signup = await app.read('/api/notify', await post('/api/notify', { email: 'kyaku@example.com', productSlug: PRODUCT }));
      const subscriptionId = signup.success().subscriptionId;
      (await asKen('/api/admin/notify/send', { productSlug: PRODUCT })).success();
      (await asAiko('/api/admin-notify-status', { id: subscriptionId, productSlug: PRODUCT, status: 'pending' })).success();

      const who = (history: { type: string; staffId: string | null; staffName: string | null }[]) =>
        history
          .filter((entry) => entry.type !== 'message')
          .map((entry) => `${entry.type} ${entry.staffName ?? '-'} ${entry.staffId ?? '-'}`);
      const [A, K] = [`Mori Aiko ${aiko.id}`, `Hayashi Ken ${ken.id}`];
      assert.deepEqual(who((await asAiko('/api/admin/reservations/get', { id })).success().history), [
        `status ${A}`,
        `memo ${K}`,
        'status - -',
        `archived ${A}`,
        `unarchived ${K}`,
        `retry ${K}`,
      ]);
      assert.deepEqual(who((await asKen('/api/admin/notify/get', { id: subscriptionId })).success().history), [
        `status ${K}`,
        `status ${A}`,
      ]);
      const messages = (await asKen('/api/admin/reservations/get', { id })).success().history.filter((entry) => entry.type === 'message');
      assert.ok(messages.length > 0 && messages.every((entry) => entry.staffId === null && entry.staffName === null));
      // A renamed account is named as it is now; a disabled one still is.
      (await app.call('/api/admin/staff/update', { id: ken.id, name: '林 健', disabled: true })).success();
      assert.equal(
        (await asAiko('/api/admin/reservations/get', { id })).success().history.find((e) => e.type === 'memo')?.staffName,
        '林 健',
      );
    });

    test('20 wrong passwords for one address from 20 clients lock that address’s sign-in for 15 minutes, the right password included; other addresses sign in', async () => {
      const target = await createStaff('Kobayashi Target');
      const other = await createStaff('Watanabe Other');
      const clients = Array.from({ length: 20 }, (_, i) => `203.0.113.${i + 1}`);
      const statuses: number[] = [];
      for (const from of clients) {
        const answer = await read('/api/admin/session', { email: target.email, password: `guess ${from}` }, { from });
        statuses.push(answer.status);
        if (answer.status === 429) {
          assert.deepEqual(answer.failure(429), { success: false, error: 'Too many failed sign-ins', code: 'too_many_failed_sign_ins' });
          const retryAfter = Number(answer.headers.get('retry-after'));
          assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, String(retryAfter));
        } else assert.deepEqual(answer.failure(401), REFUSED);
      }
      assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(10).fill(429)]);
      assert.equal(
        (await read('/api/admin/session', { email: target.email, password: target.password })).status,
        429,
        'the right password too',
      );
      assert.equal(
        (await read('/api/admin/session', { email: target.email.toUpperCase(), password: target.password })).status,
        429,
        'in any case',
      );
      // Its open session, the other accounts, and the same clients are not locked.
      assert.equal((await asCookie(target.cookie)('/api/admin/session/get')).status, 200);
      for (const from of clients.slice(0, 3))
        assert.equal((await read('/api/admin/session', { email: other.email, password: other.password }, { from })).status, 200);
      // An address without an account is locked the same way, so a lock says nothing of whether it has one.
      const unknown = [];
      for (let i = 0; i < 11; i++)
        unknown.push((await read('/api/admin/session', { email: 'ghost@example.jp', password: 'whatever it is' })).status);
      assert.deepEqual(unknown, [...Array(10).fill(401), 429]);
    });

    test('failed sign-ins count towards the client’s failed admin authentications', async () => {
      const from = '192.0.2.77';
      for (let i = 0; i < 5; i++)
        assert.equal((await read('/api/admin/session', { email: `x${i}@example.jp`, password: 'nope nope nope' }, { from })).status, 401);
      const refused = await read('/api/admin/session', { email: OWNER.email, password: OWNER.password }, { from });
      assert.equal(refused.failure(429).code, 'too_many_failed_authentications');
      const bearer = await app.request('/api/admin/session/get', {
        method: 'POST',
        headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}`, 'x-forwarded-for': from },
        body: '{}',
      });
      assert.equal(bearer.status, 429, 'and its admin requests, the right token included');
    });
  });
}
