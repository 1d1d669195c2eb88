import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

/** Headers that carry no valid admin token: none, a wrong one, another scheme, an empty bearer. */
const NO_TOKEN: Record<string, string>[] = [
  {},
  { authorization: 'Bearer wrong' },
  { authorization: 'Basic dGVzdA==' },
  { authorization: 'Bearer ' },
];

/**
 * `path` answers each request without a valid admin token 401 before it looks at the body (one
 * that is not JSON, `mistyped`, one over 64 KiB), with the answer open to any origin.
 */
export async function assertRefusedWithoutToken(app: TestApp, path: string, mistyped: object): Promise<void> {
  for (const headers of NO_TOKEN) {
    for (const body of ['not json at all', JSON.stringify(mistyped), 'x'.repeat(70 * 1024)]) {
      const response = await app.request(path, { method: 'POST', headers, body });
      assert.equal(response.status, 401, `${JSON.stringify(headers)} ${body.slice(0, 20)}`);
      assert.deepEqual(await response.json(), { success: false, error: 'Unauthorized', code: 'unauthorized' });
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
    }
  }
}

/** `path`, with the admin token, answers a body that is not a JSON object 400 invalid_json_body. */
export async function assertNotAnObjectRefused(app: TestApp, path: string): Promise<void> {
  for (const body of ['[]', '"x"', 'null', '{', '', '42']) {
    const response = await app.request(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
      body,
    });
    assert.equal(response.status, 400, `${path} ${body}`);
    assert.deepEqual(await response.json(), { success: false, error: 'Invalid JSON body', code: 'invalid_json_body' });
  }
}
