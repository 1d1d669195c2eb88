import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { freePort } from './helpers/ports.ts';
import { createTestDatabase } from './helpers/postgres.ts';
import { launchServiceProcess, startServiceProcess } from './helpers/service-process.ts';
import { startSmtpReceiver } from './helpers/smtp-receiver.ts';
import { waitUntil } from './helpers/wait.ts';

// Secrets never reach the log. Every secret gets a distinctive value; the flows
// that use them run, then the paths where things fail (the provider answering errors, the provider
// gone, the SMTP login refused, the database refusing connections, a bad configuration), and every
// line the service wrote (app.logs in process; stdout and stderr of a real process) is searched for
// each secret in every encoding it could leak in.

const ADMIN = 'adm1n-t0ken-zq7f3a9w';
const EMAIL_KEY = 're_k3y-zq9c2e1m';
const WEBHOOK = 'wh-s3cr3t-zq4b7d2x';
const UNSUBSCRIBE = 'uns-s3cr3t-zq5e6f8v';
const METRICS = 'm3tr1cs-t0ken-zq6g4h2k';
const DB_PASSWORD = 'db-p4ss-zq1a2b3c';
const SMTP_USER = 'tenpo';
const SMTP_PASSWORD = 'smtp-secret-password'; // what test/helpers/smtp-receiver.ts accepts
const WRONG_SMTP_PASSWORD = 'smtp-wr0ng-zq8h9j';
const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 30, retryCapMs: 100, leaseMs: 5_000, maxAttempts: 3 };

/** A secret as it could appear: as is, URL-encoded, in base64 (with or without padding), base64url, hex, and as SMTP AUTH sends it. */
function leaks(secret: string, user = SMTP_USER): string[] {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  return [
    secret,
    encodeURIComponent(secret),
    base64(secret),
    base64(secret).replace(/=+$/, ''),
    Buffer.from(secret).toString('base64url'),
    Buffer.from(secret).toString('hex'),
    base64(`\u0000${user}\u0000${secret}`),
    base64(`${user}:${secret}`),
  ];
}

function assertNoSecret(text: string, secrets: string[], where: string): void {
  for (const secret of secrets) {
    for (const form of leaks(secret)) assert.ok(!text.includes(form), `${where} holds ${JSON.stringify(form)} (of ${secret})`);
  }
}

/** The storefront's and the admin's everyday requests, with a few wrong tokens and tokens where they do not belong. */
async function everyday(base: Pick<TestApp, 'request' | 'post'>): Promise<void> {
  assert.equal(
    (await base.post('/api/reservation', { name: '山田 太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' })).status,
    200,
  );
  assert.equal((await base.post('/api/notify', { email: 'hanako@example.com', productSlug: 'kumo-vco-2' })).status, 200);
  assert.equal(
    (await base.post('/api/admin/notify/send', { productSlug: 'kumo-vco-2' }, { authorization: `Bearer ${ADMIN}` })).status,
    200,
  );
  assert.equal((await base.post('/api/admin-reservations-list', {}, { authorization: `Bearer ${ADMIN}` })).status, 200);
  for (const wrong of [`Bearer ${ADMIN}x`, `Bearer ${ADMIN.slice(0, -1)}`, `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`]) {
    assert.equal((await base.post('/api/admin-reservations-list', '[', { authorization: wrong })).status, 401);
  }
  for (const path of [
    `/api/admin-reservations-list?token=${ADMIN}`,
    `/nowhere?token=${ADMIN}&key=${EMAIL_KEY}`,
    `/api/products?page=x&token=${ADMIN}`,
    `/api/notify/unsubscribe?token=${UNSUBSCRIBE}`,
  ]) {
    await (await base.request(path, { headers: { cookie: `token=${ADMIN}` } })).arrayBuffer();
  }
  await (await base.request('/api/search?q=secret')).arrayBuffer();
  await (await base.request('/healthz')).arrayBuffer();
  for (const authorization of [`Bearer ${METRICS}`, `Bearer ${METRICS}x`]) {
    const scrape = await base.request('/metrics', { headers: { authorization } });
    assert.ok(!(await scrape.text()).includes(METRICS), 'the scrape does not hold the token');
  }
}

/** PostgreSQL's URL for a fresh database, with a password in it (the test cluster trusts loopback, so any works). */
async function databaseWithPassword(): Promise<{ url: string; name: string; superuser: string }> {
  const url = new URL(await createTestDatabase());
  const name = url.pathname.slice(1);
  const superuser = new URL(url);
  superuser.pathname = '/postgres';
  url.password = DB_PASSWORD;
  return { url: url.toString(), name, superuser: superuser.toString() };
}

/** Closes the database to new connections and ends the ones open: the store is down as the service sees it. */
async function refuseConnections(superuser: string, name: string, refuse: boolean): Promise<void> {
  const client = new pg.Client({ connectionString: superuser });
  await client.connect();
  try {
    await client.query(`alter database ${name} allow_connections ${refuse ? 'false' : 'true'}`);
    if (refuse)
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
  } finally {
    await client.end();
  }
}

describe('secrets never reach the log', () => {
  let receiver: HttpReceiver;
  before(async () => {
    receiver = await startHttpReceiver();
  });
  after(() => receiver.close());

  /** Every secret set, the most talkative log level, and the providers at the receiver, on the store at `databaseUrl`. */
  const secretEnv = (databaseUrl: string) => ({
    LOG_LEVEL: 'trace',
    RATE_LIMIT_PER_MINUTE: '0',
    PREORDER_API_TOKEN: ADMIN,
    UNSUBSCRIBE_SECRET: UNSUBSCRIBE,
    METRICS_TOKEN: METRICS,
    DATABASE_URL: databaseUrl,
    EMAIL_PROVIDER_API_KEY: EMAIL_KEY,
    EMAIL_API_URL: `${receiver.url}/emails`,
    RESERVATION_WEBHOOK_URL: `${receiver.url}/hooks/reservation/${WEBHOOK}`,
    RESTOCK_WEBHOOK_URL: `${receiver.url}/hooks/restock/${WEBHOOK}`,
    PUBLIC_WEBHOOK_URL: `${receiver.url}/hooks/public/${WEBHOOK}`,
  });

  test('in process on PostgreSQL: every flow, the provider failing then gone, the database refusing connections', async () => {
    const database = await databaseWithPassword();
    const env = secretEnv(database.url);
    let app: TestApp | undefined = await startTestApp({ dialect: 'postgres', env, dispatcher: FAST });
    const earlierLogs: Record<string, unknown>[] = [];
    try {
      await everyday(app);
      await receiver.waitForAccepted(2, '/emails');
      assert.equal(receiver.accepted('/emails')[0]!.headers.authorization, `Bearer ${EMAIL_KEY}`, 'the key was used');
      assert.ok(
        receiver.accepted().some((r) => r.path.endsWith(WEBHOOK)),
        'the webhooks were used',
      );

      // The provider answers errors, echoing what it was sent; then it is gone.
      receiver.failAlways(500);
      await everyday(app);
      await waitUntil(() => app!.logs.some((l) => l.msg === 'outbox: message given up after its last attempt'), {
        what: 'a message given up',
      });
      receiver.failAlways(0);
      const gone = await freePort();
      await app.close();
      earlierLogs.push(...app.logs);
      app = await startTestApp({
        dialect: 'postgres',
        env: { ...env, EMAIL_API_URL: `http://127.0.0.1:${gone}/emails`, RESERVATION_WEBHOOK_URL: `http://127.0.0.1:${gone}/${WEBHOOK}` },
        dispatcher: FAST,
      });
      await everyday(app);
      await waitUntil(() => app!.logs.some((l) => String(l.error ?? '').includes('ECONNREFUSED')), { what: 'a refused delivery logged' });

      // The database closes its doors: requests fail with 500s, connections are lost, then it is back.
      await refuseConnections(database.superuser, database.name, true);
      try {
        const failed = await app.request('/api/admin-reservations-list', {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN}` },
          body: '{}',
        });
        assert.ok(failed.status >= 500, `${failed.status}`);
        assert.equal((await app.request('/healthz')).status, 503);
      } finally {
        await refuseConnections(database.superuser, database.name, false);
      }
      await waitUntil(async () => (await app!.request('/healthz')).status === 200, { what: 'recovery' });
      assert.ok(
        app.logs.some((l) => l.msg === 'request failed'),
        'the failure was logged',
      );

      const logged = JSON.stringify([...earlierLogs, ...app.logs]);
      assertNoSecret(logged, [ADMIN, EMAIL_KEY, WEBHOOK, UNSUBSCRIBE, METRICS, DB_PASSWORD], 'app.logs');
      assertNoSecret(logged, [app.services.config.unsubscribeSecret], 'app.logs');
    } finally {
      await app?.close();
    }
  });

  test('in process with SMTP: the password is not logged when sending, when the login is refused, or when the server is gone', async () => {
    const smtp = await startSmtpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'tenpo-secrets-'));
    const apps: TestApp[] = [];
    try {
      const start = async (smtpUrl: string) => {
        const app = await startTestApp({
          env: {
            LOG_LEVEL: 'trace',
            RATE_LIMIT_PER_MINUTE: '0',
            PREORDER_API_TOKEN: ADMIN,
            SMTP_URL: smtpUrl,
            DATABASE_URL: `sqlite:${join(dir, `${apps.length}.db`)}`,
          },
          dispatcher: FAST,
        });
        apps.push(app);
        await everyday(app);
        return app;
      };
      const port = new URL(smtp.url).port;
      await start(smtp.url);
      await smtp.waitForMails(2);
      const refused = await start(`smtp://${SMTP_USER}:${WRONG_SMTP_PASSWORD}@127.0.0.1:${port}`);
      await waitUntil(() => refused.logs.some((l) => /login|auth/i.test(String(l.error ?? ''))), { what: 'the refused login logged' });
      const gone = await start(`smtp://${SMTP_USER}:${WRONG_SMTP_PASSWORD}@127.0.0.1:${await freePort()}`);
      await waitUntil(() => gone.logs.some((l) => String(l.error ?? '').includes('ECONNREFUSED')), {
        what: 'the refused connection logged',
      });
      for (const app of apps)
        assertNoSecret(
          JSON.stringify(app.logs),
          [ADMIN, SMTP_PASSWORD, WRONG_SMTP_PASSWORD],
          `logs of SMTP_URL=${app.env.SMTP_URL?.replace(/:[^:@]+@/, ':…@')}`,
        );
    } finally {
      for (const app of apps) await app.close();
      await smtp.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a real process on PostgreSQL: its stdout and stderr over a run, the database refusing connections included', async () => {
    const database = await databaseWithPassword();
    const service = await startServiceProcess({ env: secretEnv(database.url) });
    try {
      await everyday(service);
      receiver.failNext(3, 503);
      await everyday(service);
      await refuseConnections(database.superuser, database.name, true);
      try {
        assert.ok((await service.admin('/api/admin-reservations-list', {})).status >= 500);
      } finally {
        await refuseConnections(database.superuser, database.name, false);
      }
      await waitUntil(() => service.logs().some((l) => l.msg === 'request failed'), { what: 'the failure logged' });
    } finally {
      await service.stop();
    }
    assert.ok(service.logs().some((l) => l.msg === 'stopped'));
    assertNoSecret(service.stdout + service.stderr, [ADMIN, EMAIL_KEY, WEBHOOK, UNSUBSCRIBE, METRICS, DB_PASSWORD], 'the output');
  });

  test('a bad configuration names the variable and never shows a secret’s value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenpo-secrets-'));
    const secret = 'cfg-s3cr3t-zq0k1l';
    const cases: [Record<string, string>, RegExp][] = [
      [{ DATABASE_URL: `postgres://shop:${secret}@[bad` }, /DATABASE_URL/],
      [{ DATABASE_URL: `postgres://shop:${secret}@127.0.0.1:${await freePort()}/shop` }, /cannot start/],
      [{ PREORDER_API_TOKEN: secret, ADMIN_API_TOKEN: `${secret}-other` }, /PREORDER_API_TOKEN and ADMIN_API_TOKEN/],
      [{ SMTP_URL: `http://user:${secret}@mail.example` }, /SMTP_URL/],
      [{ EMAIL_PROVIDER_API_KEY: secret, EMAIL_API_URL: 'not a url' }, /EMAIL_API_URL/],
      [{ UNSUBSCRIBE_SECRET: secret, LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
      [{ RESERVATION_WEBHOOK_URL: `ftp://hooks.example/${secret}` }, /RESERVATION_WEBHOOK_URL/],
      [{ RESTOCK_WEBHOOK_URL: `hooks.example/${secret}` }, /RESTOCK_WEBHOOK_URL/],
      [{ PUBLIC_WEBHOOK_URL: secret }, /PUBLIC_WEBHOOK_URL/],
    ];
    try {
      for (const [env, message] of cases) {
        const service = await launchServiceProcess({
          env: { DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, PREORDER_API_TOKEN: secret, UNSUBSCRIBE_SECRET: secret, ...env },
        });
        const { code } = await service.exited;
        assert.equal(code, 1, JSON.stringify(env));
        assert.match(service.stderr, message);
        assertNoSecret(service.stdout + service.stderr, [secret], JSON.stringify(Object.keys(env)));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
