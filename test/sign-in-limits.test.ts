import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';

// Sign-in's limits under concurrency, over real HTTP on both databases: an attempt takes its place
// in the address's and the client's failure counts before its password is hashed, so attempts sent
// at once cannot all pass the check first; and the hashes are served client by client in turn, so
// a flood from one client does not hold up an owner signing in from elsewhere. How many passwords
// were hashed is read from /metrics (tenpo_password_hashes_total).

const OWNER = { email: 'owner@example.jp', name: '店長 一郎', role: 'owner', password: 'owner password 1' } as const;

for (const dialect of DIALECTS) {
  describe(`sign-in limits under concurrency (${dialect})`, () => {
    let app: TestApp;

    before(async () => {
      app = await startTestApp({
        dialect,
        // Every hop trusted, so a test's requests come from the client its X-Forwarded-For names; the default limit.
        env: { TRUST_PROXY: 'true', ADMIN_AUTH_FAILURES_PER_MINUTE: '20', RATE_LIMIT_PER_MINUTE: '0' },
      });
      (await app.call('/api/admin/staff/create', OWNER)).success();
    });
    after(() => app.close());

    const signIn = (email: string, password: string, from: string) =>
      app.request('/api/admin/session', {
        method: 'POST',
        headers: { 'x-forwarded-for': from },
        body: JSON.stringify({ email, password }),
      });
    async function hashed(): Promise<number> {
      const text = await (await app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
      return Number(/^tenpo_password_hashes_total (\d+)$/m.exec(text)![1]);
    }
    async function statuses(answers: Promise<Response>[]): Promise<Record<number, number>> {
      const counts: Record<number, number> = {};
      for (const answer of await Promise.all(answers)) {
        counts[answer.status] = (counts[answer.status] ?? 0) + 1;
        await answer.body?.cancel();
      }
      return counts;
    }

    test('95 sign-ins at once to one address from one client, the last with the right password: 10 passwords checked, the rest and the right one 429', async () => {
      const clerk = { email: 'clerk@example.jp', name: '佐藤 花子', role: 'owner', password: 'the clerk’s password' };
      (await app.call('/api/admin/staff/create', clerk)).success();
      const before = await hashed();
      const wrong = Array.from({ length: 94 }, (_, i) => signIn(clerk.email, `guess number ${i}`, '203.0.113.9'));
      // Sent once the others have taken their places (84 answered at once), while 10 are still being checked.
      let answered = 0;
      for (const answer of wrong) void answer.then(() => answered++);
      while (answered < 84) await new Promise((resolve) => setTimeout(resolve, 10));
      const right = await signIn(clerk.email, clerk.password, '203.0.113.9');
      assert.equal(right.status, 429, 'the right password too');
      await right.body?.cancel();
      assert.deepEqual(await statuses(wrong), { 401: 10, 429: 84 });
      assert.equal((await hashed()) - before, 10);
    });

    test('300 sign-ins at once to one address, each from a client of its own (rotating X-Forwarded-For): 10 checked', async () => {
      const before = await hashed();
      const answers = Array.from({ length: 300 }, (_, i) => signIn('target@example.jp', `guess ${i}`, `198.51.${i >> 8}.${i & 255}`));
      assert.deepEqual(await statuses(answers), { 401: 10, 429: 290 });
      assert.equal((await hashed()) - before, 10);
    });

    test('200 wrong sign-ins at once from one client to 200 addresses: 20 hashed (its minute’s limit); an owner signing in from elsewhere waits for the hashes already running only', async () => {
      const before = await hashed();
      const flood = Array.from({ length: 200 }, (_, i) => signIn(`nobody${i}@example.jp`, 'a wrong password', '192.0.2.200'));
      // The owner comes once the flood is being hashed.
      while ((await hashed()) === before) await new Promise((resolve) => setTimeout(resolve, 10));
      const beforeOwner = await hashed();
      const owner = await signIn(OWNER.email, OWNER.password, '192.0.2.1');
      const hashedForOwner = (await hashed()) - beforeOwner;
      assert.equal(owner.status, 200);
      // Its own, and the flood's at most one running beside it and one more that started meanwhile.
      assert.ok(hashedForOwner <= 3, `${hashedForOwner} passwords hashed while the owner waited`);
      assert.deepEqual(await statuses(flood), { 401: 20, 429: 180 });
      assert.equal((await hashed()) - before, 21);
    });
  });
}
