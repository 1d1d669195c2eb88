import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestApp } from './app.ts';
import { rawClient } from './raw-http.ts';

const INVALID_INPUT = '入力内容に誤りがあります';
const PRODUCT_NOT_FOUND = '指定された商品が見つかりません';
const BAD_EMAIL = '有効なメールアドレスを入力してください';
const BAD_SLUG = '商品の指定が正しくありません';

/** The refused addresses and product slugs both public forms share: [label, `valid` with one field bad, the field's message]. */
export function addressAndSlugRefusals(valid: Record<string, string>): [string, unknown, Record<string, string>][] {
  return [
    ['no @', { ...valid, email: 'taro.example.com' }, { email: BAD_EMAIL }],
    ['no domain', { ...valid, email: 'taro@' }, { email: BAD_EMAIL }],
    ['a space inside', { ...valid, email: 'ta ro@example.com' }, { email: BAD_EMAIL }],
    ['a header injection', { ...valid, email: 'taro@example.com\r\nBcc: x@example.com' }, { email: BAD_EMAIL }],
    ['markup', { ...valid, email: '<script>@example.com' }, { email: BAD_EMAIL }],
    ['a NUL', { ...valid, email: 'taro\u0000@example.com' }, { email: BAD_EMAIL }],
    ['255 characters', { ...valid, email: `${'a'.repeat(64)}@${'b'.repeat(180)}.example.com` }, { email: BAD_EMAIL }],
    ['an upper-case slug', { ...valid, productSlug: 'Kumo-VCO-2' }, { productSlug: BAD_SLUG }],
    ['a slug with spaces', { ...valid, productSlug: 'kumo vco' }, { productSlug: BAD_SLUG }],
    ['a Japanese slug', { ...valid, productSlug: 'くも' }, { productSlug: BAD_SLUG }],
    ['a slug with a double hyphen', { ...valid, productSlug: 'kumo--vco' }, { productSlug: BAD_SLUG }],
    ['a slug of 101 characters', { ...valid, productSlug: 'a'.repeat(101) }, { productSlug: BAD_SLUG }],
    ['an empty slug', { ...valid, productSlug: '' }, { productSlug: BAD_SLUG }],
  ];
}

/** A public form: the app serving it, its path and the table it writes. */
interface PublicForm {
  app: () => TestApp;
  path: string;
  table: 'reservations' | 'subscriptions';
}

/** Posts `body` to the form as JSON (a string as it is). */
function postTo(form: PublicForm, body: unknown): Promise<Response> {
  return form.app().request(form.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** How many rows the form's table holds. */
async function storedIn(form: PublicForm): Promise<number> {
  const row = await form
    .app()
    .services.database.db.selectFrom(form.table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Registers a test per case ([label, body, the Japanese message of each field it gets wrong]): the
 * form answers 400 invalid_input with exactly those fields, in that order, and stores nothing.
 */
export function invalidInputTests(form: PublicForm, cases: [string, unknown, Record<string, string>][]): void {
  for (const [label, body, fields] of cases) {
    test(label, async () => {
      const before = await storedIn(form);
      const response = await postTo(form, body);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), {
        success: false,
        error: INVALID_INPUT,
        code: 'invalid_input',
        details: Object.entries(fields).map(([field, message]) => ({ field, message })),
      });
      assert.equal(await storedIn(form), before);
    });
  }
}

/**
 * Registers the tests of the rules every public form shares (POST /api/reservation and
 * POST /api/notify): keys like __proto__ change nothing, a body that is not a JSON object is the
 * invalid-input 400 with no details, an unknown product is its own 400 and stores nothing, and a
 * body over 64 KiB is 413.
 */
export function publicFormRules(form: PublicForm & { valid: Record<string, string> }): void {
  const post = (body: unknown) => postTo(form, body);
  const stored = () => storedIn(form);

  test('__proto__ and constructor beside valid fields change nothing', async () => {
    const response = await post(
      `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}, ${JSON.stringify(form.valid).slice(1)}`,
    );
    assert.equal(response.status, 200);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('a body that is not a JSON object → 400 with the message and no details', async () => {
    for (const body of ['[]', '"text"', '42', 'null', 'true', '{"email":', 'email=a@b.jp', '', '\u0000']) {
      const response = await post(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(await response.json(), { success: false, error: INVALID_INPUT, code: 'invalid_input' });
    }
  });

  test('an unknown product → 400 with its own message and no details, and nothing is stored', async () => {
    const before = await stored();
    const response = await post({ ...form.valid, productSlug: 'no-such-module' });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { success: false, error: PRODUCT_NOT_FOUND, code: 'product_not_found' });
    assert.equal(await stored(), before);
  });

  test('a post from another site (an Origin not the shop’s) → 403 Origin not allowed, nothing stored or queued; without Origin or from the shop, as usual', async () => {
    const client = rawClient(form.app().url);
    const outbox = async () =>
      Number(
        (
          await form
            .app()
            .services.database.db.selectFrom('outbox')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const send = (origins: string[], type = 'application/json') =>
      client.send({
        method: 'POST',
        target: form.path,
        headers: [['Content-Type', type], ...origins.map((o): [string, string] => ['Origin', o])],
        body: Buffer.from(JSON.stringify(form.valid)),
      });
    try {
      const before = [await stored(), await outbox()];
      const refused = [
        ['https://evil.example'],
        ['null'],
        ['http://localhost:34434.evil.example'],
        [`http://${'a'.repeat(240)}.localhost:34434`],
        [form.app().services.config.publicBaseUrl],
        ['http://localhost:34434', 'https://evil.example'],
      ];
      for (const origins of refused) {
        for (const type of ['application/json', 'text/plain']) {
          const response = await send(origins, type);
          assert.equal(response.status, 403, `${origins.join(' + ').slice(0, 80)} ${type}`);
          assert.deepEqual(JSON.parse(response.body.toString()), {
            success: false,
            error: 'Origin not allowed',
            code: 'origin_not_allowed',
          });
        }
      }
      assert.deepEqual([await stored(), await outbox()], before, 'nothing written, nothing to send');
      assert.equal((await send([])).status, 200, 'no Origin: a server or a script');
      assert.equal((await send(['http://localhost:34434'])).status, 200, 'the shop’s own origin');
      assert.equal((await send([new URL(form.app().url).origin])).status, 200, 'the service’s own pages (the demo storefront)');
    } finally {
      client.close();
    }
  });

  test('a body over 64 KiB → 413', async () => {
    const response = await post({ ...form.valid, padding: 'x'.repeat(70 * 1024) });
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), { success: false, error: 'Payload too large', code: 'payload_too_large' });
  });
}
