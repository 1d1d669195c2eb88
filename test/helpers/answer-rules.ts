import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { openApiPath } from '../../src/api-reference/openapi-document.ts';
import type { Route } from '../../src/http/route.ts';
import type { Contract } from './openapi-contract.ts';
import type { RawRequest, RawResponse } from './raw-http.ts';

// The rules every answer keeps, whatever was asked, as the OpenAPI document says them: no 5xx, the
// status is one the document lists for the operation (or one the mounting gives every path: 204
// for OPTIONS, 405 for a method the path does not serve, 304 to a conditional GET), an error is the
// envelope unless the document says the route answers a page, and a 2xx matches its schema.

export interface Served {
  /** Hono's path pattern (`/docs/assets/:file`). */
  pattern: string;
  methods: Route['method'][];
}

/** The paths the app serves and the methods of each, from its route list. */
export function servedPaths(routes: Route[]): Served[] {
  return [...Map.groupBy(routes, (route) => route.path)].map(([pattern, rs]) => ({ pattern, methods: rs.map((r) => r.method) }));
}

/** Fails unless `response` is an answer the service may give to `request` on `served`. */
export function checkAnswer(contract: Contract, served: Served, request: RawRequest, response: RawResponse): void {
  const what = `${request.method} ${request.target.slice(0, 200)} → ${response.status} ${response.body.subarray(0, 300).toString('utf8')}`;
  assert.ok(response.status < 500, `a server error: ${what}`);
  assert.ok(response.headers['x-request-id'], `no X-Request-Id: ${what}`);
  assert.equal(response.headers['x-content-type-options'], 'nosniff', `no nosniff: ${what}`);
  if (String(response.headers['content-type']).startsWith('text/html')) {
    assert.match(
      String(response.headers['content-security-policy']),
      /(?:^|;\s*)frame-ancestors 'none'/,
      `an HTML page that can be framed: ${what}`,
    );
  }
  if (request.method === 'OPTIONS') return assert.equal(response.status, 204, what);
  const head = request.method === 'HEAD';
  if (head) assert.equal(response.body.length, 0, `HEAD with a body: ${what}`);
  const method = head ? 'GET' : request.method;
  if (!served.methods.includes(method as Route['method'])) {
    assert.equal(response.status, 405, what);
    assert.ok(response.headers.allow, `405 without Allow: ${what}`);
    if (head) return checkJsonType(response, what);
    checkEnvelope(response, what);
    return assert.equal(JSON.parse(response.body.toString('utf8')).code, 'method_not_allowed', what);
  }

  const operation = contract.document.paths[openApiPath(served.pattern)]?.[method.toLowerCase()];
  assert.ok(operation, `${method} ${served.pattern} is not in the document`);
  const documented = operation.responses[String(response.status)] as { content?: Record<string, unknown> } | undefined;
  const conditional = (request.headers ?? []).some(([name]) => name.toLowerCase() === 'if-none-match');
  if (response.status === 304 && conditional) return;
  assert.ok(
    documented,
    `status ${response.status} is not documented for ${method} ${served.pattern} (${Object.keys(operation.responses).join(', ')}): ${what}`,
  );

  const documentedType = Object.keys(documented.content ?? {})[0];
  if (documentedType !== undefined && documentedType !== 'application/json') {
    // A page or an asset: its documented media type (charset aside), never JSON pretending otherwise.
    const base = documentedType.split(';')[0]!.replace('*', '');
    assert.ok(String(response.headers['content-type']).startsWith(base), `${documentedType} expected: ${what}`);
    return;
  }
  if (head) return documentedType === undefined ? undefined : checkJsonType(response, what);
  if (response.status >= 400) {
    checkEnvelope(response, what);
    return contract.check(method, openApiPath(served.pattern), response.status, JSON.parse(decodedBody(response)));
  }
  if (documentedType === 'application/json')
    contract.check(method, openApiPath(served.pattern), response.status, JSON.parse(decodedBody(response)));
}

/** The body as sent before any Content-Encoding (a large JSON file is gzipped when the client accepts it). */
function decodedBody(response: RawResponse): string {
  return (response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.body) : response.body).toString('utf8');
}

function checkJsonType(response: RawResponse, what: string): void {
  assert.match(String(response.headers['content-type']), /^application\/json/, `not JSON: ${what}`);
}

/** `{success: false, error, code, details?: [{field, message}]}` and nothing else, as JSON. */
export function checkEnvelope(response: RawResponse, what = ''): void {
  checkJsonType(response, what);
  const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  assert.equal(body.success, false, what);
  assert.equal(typeof body.error, 'string', what);
  assert.notEqual(body.error, '', what);
  assert.match(String(body.code), /^[a-z]+(?:_[a-z]+)*$/, `no code: ${what}`);
  assert.deepEqual(
    Object.keys(body).filter((key) => !['success', 'error', 'code', 'details'].includes(key)),
    [],
    `extra keys: ${what}`,
  );
  if ('details' in body) {
    assert.ok(Array.isArray(body.details), what);
    for (const detail of body.details as unknown[]) {
      assert.deepEqual(Object.keys(detail as object).sort(), ['field', 'message'], what);
      const { field, message } = detail as { field: unknown; message: unknown };
      assert.ok(typeof field === 'string' && typeof message === 'string', what);
    }
  }
}
