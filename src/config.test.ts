import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseDatabaseUrl } from './config.ts';

describe('defaults', () => {
  test('an empty environment is a working development setup', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8787);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.appEnv, 'development');
    assert.deepEqual(config.database, { dialect: 'sqlite', path: './var/tenpo-development.db' });
    assert.equal(config.adminTokenGenerated, true);
    assert.ok(config.adminToken.length >= 32);
    assert.equal(config.email.from, 'tenpo <no-reply@localhost>');
    assert.equal(config.email.api, undefined);
    assert.equal(config.publicBaseUrl, 'http://localhost:8787');
    assert.equal(config.catalogPath, 'data/products.json');
    assert.equal(config.contentDir, 'content');
    assert.equal(config.rateLimitPerMinute, 10);
    assert.equal(config.adminAuthFailuresPerMinute, 20);
    assert.equal(config.outboxLeaseMs, 60_000);
    assert.equal(config.outboxRetentionDays, 30);
  });

  test('each environment gets its own default store', () => {
    assert.deepEqual(loadConfig({ APP_ENV: 'preview' }).database, { dialect: 'sqlite', path: './var/tenpo-preview.db' });
  });

  test('empty values count as unset', () => {
    assert.equal(loadConfig({ PORT: '', RATE_LIMIT_PER_MINUTE: '  ' }).port, 8787);
  });

  test('a generated token is new for every start', () => {
    assert.notEqual(loadConfig({}).adminToken, loadConfig({}).adminToken);
  });
});

describe('the admin token', () => {
  test('either name sets it', () => {
    assert.equal(loadConfig({ PREORDER_API_TOKEN: 'a-token' }).adminToken, 'a-token');
    assert.equal(loadConfig({ ADMIN_API_TOKEN: 'b-token' }).adminToken, 'b-token');
    assert.equal(loadConfig({ ADMIN_API_TOKEN: 'same', PREORDER_API_TOKEN: 'same' }).adminTokenGenerated, false);
  });

  test('production refuses to start without one', () => {
    assert.throws(() => loadConfig({ APP_ENV: 'production' }), { name: 'ConfigError', message: /PREORDER_API_TOKEN.*production/ });
  });

  test('production refuses a token, an unsubscribe secret or a metrics token shorter than 32 characters, naming the variable', () => {
    const long = 'x'.repeat(32);
    const production = { APP_ENV: 'production', UNSUBSCRIBE_SECRET: long };
    assert.throws(() => loadConfig({ ...production, PREORDER_API_TOKEN: 'x'.repeat(31) }), {
      name: 'ConfigError',
      message: /^PREORDER_API_TOKEN must be at least 32 characters when APP_ENV is production$/,
    });
    assert.throws(() => loadConfig({ ...production, ADMIN_API_TOKEN: 'short' }), {
      message: /^ADMIN_API_TOKEN must be at least 32 characters/,
    });
    assert.throws(() => loadConfig({ ...production, PREORDER_API_TOKEN: long, UNSUBSCRIBE_SECRET: 'short' }), {
      message: /^UNSUBSCRIBE_SECRET must be at least 32 characters/,
    });
    assert.throws(() => loadConfig({ ...production, PREORDER_API_TOKEN: long, METRICS_TOKEN: 'm' }), {
      name: 'ConfigError',
      message: /^METRICS_TOKEN must be at least 32 characters when APP_ENV is production$/,
    });
    assert.equal(loadConfig({ ...production, PREORDER_API_TOKEN: long, METRICS_TOKEN: long }).metricsToken, long);
    assert.equal(
      loadConfig({ APP_ENV: 'preview', PREORDER_API_TOKEN: long, METRICS_TOKEN: 'm' }).metricsToken,
      'm',
      'outside production any length',
    );
    assert.equal(loadConfig({ ...production, PREORDER_API_TOKEN: long }).adminToken, long);
    assert.equal(
      loadConfig({ APP_ENV: 'production', PREORDER_API_TOKEN: long }).unsubscribeSecret.length >= 32,
      true,
      'the derived secret is long',
    );
    assert.equal(
      loadConfig({ APP_ENV: 'preview', PREORDER_API_TOKEN: 'short', UNSUBSCRIBE_SECRET: 's' }).adminToken,
      'short',
      'outside production any length',
    );
  });

  test('two different tokens are refused rather than one picked silently', () => {
    assert.throws(() => loadConfig({ ADMIN_API_TOKEN: 'a', PREORDER_API_TOKEN: 'b' }), ConfigError);
  });

  test('the unsubscribe secret is derived from the token when not given, never equal to it', () => {
    const config = loadConfig({ PREORDER_API_TOKEN: 'tok' });
    assert.notEqual(config.unsubscribeSecret, 'tok');
    assert.equal(config.unsubscribeSecret, loadConfig({ PREORDER_API_TOKEN: 'tok' }).unsubscribeSecret);
    assert.equal(loadConfig({ PREORDER_API_TOKEN: 'tok', UNSUBSCRIBE_SECRET: 's' }).unsubscribeSecret, 's');
  });

  test('the idempotency secret is derived from the unsubscribe secret: the same on every instance, equal to no other secret', () => {
    const config = loadConfig({ PREORDER_API_TOKEN: 'tok', UNSUBSCRIBE_SECRET: 'shared' });
    assert.equal(config.idempotencySecret, loadConfig({ PREORDER_API_TOKEN: 'other', UNSUBSCRIBE_SECRET: 'shared' }).idempotencySecret);
    assert.notEqual(config.idempotencySecret, loadConfig({ PREORDER_API_TOKEN: 'tok', UNSUBSCRIBE_SECRET: 'another' }).idempotencySecret);
    for (const other of ['tok', 'shared', config.keywordLogClientSecret]) assert.notEqual(config.idempotencySecret, other);
  });
});

describe('bad values name the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^PORT must be an integer between 0 and 65535 \(got "eighty"\)$/],
    [{ PORT: '70000' }, /^PORT /],
    [{ PORT: '-1' }, /^PORT /],
    [{ APP_ENV: 'staging' }, /^APP_ENV must be one of development, preview, production/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be sqlite:<path>/],
    [{ DATABASE_URL: 'sqlite:' }, /^DATABASE_URL /],
    [{ RATE_LIMIT_PER_MINUTE: 'many' }, /^RATE_LIMIT_PER_MINUTE /],
    [{ OUTBOX_LEASE_SECONDS: '0' }, /^OUTBOX_LEASE_SECONDS must be an integer between 1 and 3600/],
    [{ OUTBOX_RETENTION_DAYS: '0' }, /^OUTBOX_RETENTION_DAYS must be an integer between 1 and 3650/],
    [{ OUTBOX_RETENTION_DAYS: '3651' }, /^OUTBOX_RETENTION_DAYS must be an integer between 1 and 3650/],
    [{ OUTBOX_RETENTION_DAYS: 'a month' }, /^OUTBOX_RETENTION_DAYS must be an integer between 1 and 3650/],
    [{ EMAIL_API_URL: 'not a url' }, /^EMAIL_API_URL must be an http\(s\) URL/],
    [{ SMTP_URL: 'http://mail' }, /^SMTP_URL must be an smtp/],
    [{ RESERVATION_WEBHOOK_URL: 'ftp://x' }, /^RESERVATION_WEBHOOK_URL /],
    [{ PREVIEW_ORIGIN_PATTERN: '(' }, /^PREVIEW_ORIGIN_PATTERN must be a valid regular expression/],
    [
      { PREVIEW_ORIGIN_PATTERN: 'https://(?:[a-z]+-)*preview\\.example' },
      /^PREVIEW_ORIGIN_PATTERN must not repeat a group holding a repetition, such as \(a\+\)\+, which can backtrack catastrophically/,
    ],
    [{ ADMIN_AUTH_FAILURES_PER_MINUTE: '-1' }, /^ADMIN_AUTH_FAILURES_PER_MINUTE must be an integer/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL /],
    [
      { TRUST_PROXY: 'yes' },
      /^TRUST_PROXY must be true, false, a number of proxies \(0-20\) or a comma-separated list of IP addresses and CIDR ranges \(got "yes"\)$/,
    ],
    [{ TRUST_PROXY: '21' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.1, proxy.internal' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.0/8/1' }, /^TRUST_PROXY /],
  ];
  for (const [env, message] of cases) {
    test(Object.keys(env)[0]!, () => {
      assert.throws(
        () => loadConfig(env),
        (error: Error) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }

  test('secret values are never echoed', () => {
    for (const [variable, value] of [
      ['SMTP_URL', 'http://user:hunter2@mail'],
      ['EMAIL_API_URL', 'ftp://user:hunter2@mail/emails'],
      ['RESERVATION_WEBHOOK_URL', 'ftp://hooks.example/hunter2'],
      ['DATABASE_URL', 'mysql://user:hunter2@db/shop'],
    ]) {
      assert.throws(
        () => loadConfig({ [variable!]: value! }),
        (error: Error) => error.message.startsWith(variable!) && !error.message.includes('hunter2'),
        variable,
      );
    }
  });
});

test('database URLs', () => {
  assert.deepEqual(parseDatabaseUrl('sqlite::memory:'), { dialect: 'sqlite', path: ':memory:' });
  assert.deepEqual(parseDatabaseUrl('sqlite:/data/shop.db'), { dialect: 'sqlite', path: '/data/shop.db' });
  assert.deepEqual(parseDatabaseUrl('postgres://u:p@db:5432/shop'), { dialect: 'postgres', url: 'postgres://u:p@db:5432/shop' });
  assert.equal(parseDatabaseUrl('postgresql://db/shop').dialect, 'postgres');
});

test('the preview pattern must match the whole origin', () => {
  const pattern = loadConfig({ PREVIEW_ORIGIN_PATTERN: 'https://[a-z0-9-]+\\.pages\\.dev' }).cors.previewOriginPattern!;
  assert.ok(pattern.test('https://pr-1.pages.dev'));
  assert.ok(!pattern.test('https://pr-1.pages.dev.evil.example'));
});

describe('a development token kept across starts', () => {
  const files: string[] = [];
  const keptToken = (file: string) => {
    files.push(file);
    return 'kept-token';
  };

  test('development without a token uses the kept one, stored beside its SQLite file', () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite:/data/shop/dev.db' }, { keptToken });
    assert.equal(config.adminToken, 'kept-token');
    assert.equal(config.adminTokenFile, '/data/shop/development-admin-token');
    assert.equal(
      config.unsubscribeSecret,
      loadConfig({ DATABASE_URL: 'sqlite:/x.db' }, { keptToken }).unsubscribeSecret,
      'links stay valid too',
    );
    assert.equal(loadConfig({}, { keptToken }).adminTokenFile, 'var/development-admin-token');
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/shop' }, { keptToken }).adminTokenFile, 'var/development-admin-token');
  });

  test('a configured token, or another environment, keeps nothing', () => {
    files.length = 0;
    assert.equal(loadConfig({ PREORDER_API_TOKEN: 'mine' }, { keptToken }).adminTokenFile, undefined);
    const preview = loadConfig({ APP_ENV: 'preview' }, { keptToken });
    assert.equal(preview.adminTokenFile, undefined);
    assert.notEqual(preview.adminToken, 'kept-token');
    assert.throws(() => loadConfig({ APP_ENV: 'production' }, { keptToken }), /required when APP_ENV is production/);
    assert.deepEqual(files, []);
  });
});

test('TRUST_PROXY: none, a number of proxies, or their addresses', () => {
  assert.deepEqual(loadConfig({}).trustProxy, { hops: 0 });
  assert.deepEqual(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, { hops: 0 });
  assert.deepEqual(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, { hops: 1 });
  assert.deepEqual(loadConfig({ TRUST_PROXY: '0' }).trustProxy, { hops: 0 });
  assert.deepEqual(loadConfig({ TRUST_PROXY: '1' }).trustProxy, { hops: 1 });
  assert.deepEqual(loadConfig({ TRUST_PROXY: '3' }).trustProxy, { hops: 3 });
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8 ' }).trustProxy, {
    addresses: ['10.0.0.0/8', '192.0.2.7', 'fd00::/8'],
  });
});
