import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';

// A JSON string may escape half a character (`"\ud800"`): text that is not well-formed Unicode, which
// no column, email or page can hold as text. Wherever text is taken it is refused as its field's
// mistake (400 with that field in the details), and nothing is written or sent.

const HALF = '\\ud800';

describe('lone surrogates', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(() => app?.close());

  test('a reservation name or a restock address with half a character: 400 naming the field, nothing stored', async () => {
    const reservation = await app.post('/api/reservation', `{"name":"山田${HALF}","email":"taro@example.com","productSlug":"kumo-vco-2"}`);
    assert.equal(reservation.status, 400);
    assert.deepEqual(await reservation.json(), {
      success: false,
      error: '入力内容に誤りがあります',
      code: 'invalid_input',
      details: [{ field: 'name', message: 'お名前を入力してください' }],
    });
    const signup = await app.post('/api/notify', `{"email":"taro${HALF}@example.com","productSlug":"kumo-vco-2"}`);
    assert.equal(signup.status, 400);
    assert.deepEqual(
      ((await signup.json()) as { details: { field: string }[] }).details.map((d) => d.field),
      ['email'],
    );
    const listed = (await (await app.admin('/api/admin-reservations-list', {})).json()) as { reservations: unknown[] };
    assert.equal(listed.reservations.length, 0);
  });

  test('staff text too: a memo or a template with half a character is refused, the record and the template unchanged', async () => {
    const made = (await (
      await app.post('/api/reservation', '{"name":"山田 太郎","email":"taro@example.com","productSlug":"kumo-vco-2"}')
    ).json()) as { reservationId: string };
    const memo = await app.request('/api/admin-reservations-status', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
      body: `{"id":"${made.reservationId}","productSlug":"kumo-vco-2","status":"pending","notes":"電話${HALF}"}`,
    });
    assert.equal(memo.status, 400);
    assert.deepEqual(
      ((await memo.json()) as { details: { field: string }[] }).details.map((d) => d.field),
      ['notes'],
    );
    const template = await app.request('/api/admin/email-templates/update', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
      body: `{"kind":"reservation-confirmed","subject":"確定${HALF}"}`,
    });
    assert.equal(template.status, 400);
    assert.deepEqual(
      ((await template.json()) as { details: { field: string }[] }).details.map((d) => d.field),
      ['subject'],
    );
    const { templates } = (await (await app.admin('/api/admin/email-templates/list', {})).json()) as {
      templates: { kind: string; version: number }[];
    };
    assert.equal(templates.find((t) => t.kind === 'reservation-confirmed')!.version, 1, 'still the default wording');
  });
});
