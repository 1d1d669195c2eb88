import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseDatabaseUrl } from './config.ts';

/** What production requires besides its secrets: where customers reach tenpo and the storefront. */
const PRODUCTION_URLS = { PUBLIC_BASE_URL: 'https://tenpo.shop.example', STOREFRONT_URL: 'https://shop.example' };
const PRODUCTION = { APP_ENV: 'production', PREORDER_API_TOKEN: 'a-production-token-of-32-characters', ...PRODUCTION_URLS };

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
    const long = 'a-secret-of-at-least-32-characters';
    const production = { APP_ENV: 'production', UNSUBSCRIBE_SECRET: long, ...PRODUCTION_URLS };
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
    // Long enough, and no secret at all.
    for (const [variable, repeated] of [
      ['METRICS_TOKEN', 'a'.repeat(40)],
      ['UNSUBSCRIBE_SECRET', 'x'.repeat(32)],
      ['PREORDER_API_TOKEN', 't'.repeat(64)],
    ] as const)
      assert.throws(() => loadConfig({ ...production, PREORDER_API_TOKEN: long, [variable]: repeated }), {
        name: 'ConfigError',
        message: new RegExp(`^${variable} must not be one character repeated when APP_ENV is production$`),
      });
    assert.equal(
      loadConfig({ APP_ENV: 'preview', PREORDER_API_TOKEN: long, METRICS_TOKEN: 'm' }).metricsToken,
      'm',
      'outside production any length',
    );
    assert.equal(loadConfig({ ...production, PREORDER_API_TOKEN: long }).adminToken, long);
    assert.equal(
      loadConfig({ APP_ENV: 'production', PREORDER_API_TOKEN: long, ...PRODUCTION_URLS }).unsubscribeSecret.length >= 32,
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

  test('a configured token keeps nothing; preview keeps its own, beside its store', () => {
    files.length = 0;
    assert.equal(loadConfig({ PREORDER_API_TOKEN: 'mine' }, { keptToken }).adminTokenFile, undefined);
    const preview = loadConfig({ APP_ENV: 'preview' }, { keptToken });
    assert.equal(preview.adminTokenFile, 'var/preview-admin-token');
    assert.throws(() => loadConfig({ APP_ENV: 'production', ...PRODUCTION_URLS }, { keptToken }), /required when APP_ENV is production/);
    assert.deepEqual(files, ['var/preview-admin-token']);
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

describe('production refuses what would hurt customers', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      return (error as ConfigError).problems;
    }
    return [];
  };

  test('no start without PUBLIC_BASE_URL and STOREFRONT_URL, each https', () => {
    assert.deepEqual(problems(PRODUCTION), []);
    const { PUBLIC_BASE_URL: _public, STOREFRONT_URL: _storefront, ...without } = PRODUCTION;
    assert.deepEqual(
      problems(without).map((line) => line.split(':')[0]),
      ['PUBLIC_BASE_URL is required when APP_ENV is production', 'STOREFRONT_URL is required when APP_ENV is production'],
    );
    assert.deepEqual(problems({ ...PRODUCTION, STOREFRONT_URL: 'http://shop.example' }), [
      'STOREFRONT_URL must be an https URL when APP_ENV is production: the links emailed to customers would travel unencrypted',
    ]);
    assert.deepEqual(
      problems({ ...PRODUCTION, PUBLIC_BASE_URL: 'localhost' }),
      ['PUBLIC_BASE_URL must be an http(s) URL (got "localhost")'],
      'a malformed one is named once',
    );
    assert.equal(loadConfig({ APP_ENV: 'preview' }).publicBaseUrl, 'http://localhost:8787', 'elsewhere the service is the default');
  });

  test('STOREFRONT_URL defaults to the service outside production, and stays apart from PUBLIC_BASE_URL when set', () => {
    assert.equal(loadConfig({}).storefrontUrl, 'http://localhost:8787');
    assert.equal(loadConfig({ PUBLIC_BASE_URL: 'https://tenpo.example/' }).storefrontUrl, 'https://tenpo.example');
    const both = loadConfig({ ...PRODUCTION, STOREFRONT_URL: 'https://shop.example/jp/' });
    assert.deepEqual([both.publicBaseUrl, both.storefrontUrl], ['https://tenpo.shop.example', 'https://shop.example/jp']);
  });

  test('NODE_ENV=production is followed when APP_ENV is unset, and refused against APP_ENV=development', () => {
    const { APP_ENV: _appEnv, ...unset } = PRODUCTION;
    assert.equal(loadConfig({ ...unset, NODE_ENV: 'production' }).appEnv, 'production');
    assert.equal(loadConfig({ NODE_ENV: 'production', APP_ENV: 'preview' }).appEnv, 'preview');
    assert.equal(loadConfig({ NODE_ENV: 'development' }).appEnv, 'development');
    assert.deepEqual(problems({ NODE_ENV: 'production', APP_ENV: 'development' }), [
      'APP_ENV is development but NODE_ENV is production: set APP_ENV to production (or preview), or unset NODE_ENV',
    ]);
  });

  test('every bad variable is named, one line each, and a secret is never echoed', () => {
    assert.deepEqual(
      problems({
        PORT: 'x',
        LOG_LEVEL: 'loud',
        EMAIL_API_URL: 'ftp://key:hunter2@mail',
        OUTBOX_LEASE_SECONDS: '0',
        DATABASE_URL: 'mysql://db',
      }),
      [
        'PORT must be an integer between 0 and 65535 (got "x")',
        'EMAIL_API_URL must be an http(s) URL',
        'OUTBOX_LEASE_SECONDS must be an integer between 1 and 3600 (got "0")',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        'DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://user:password@host:port/database',
      ],
    );
  });
});
