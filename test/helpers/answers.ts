import assert from 'node:assert/strict';
import type { Endpoints, ErrorBody } from '../../src/client/api-types.ts';
import { ENDPOINTS, type EndpointPath } from '../../src/client/endpoints.ts';
import type { Route } from '../../src/http/route.ts';
import { ErrorSchema } from '../../src/http/schemas.ts';

// Tests read JSON answers as `unknown` and reach into them only through this reader: a 2xx body is
// checked against the schema its route documents for that status and typed as the client types it,
// an error against the envelope. So a field a test picks is one the contract promises, and a wrong
// shape fails where it is read.

export type Success<P extends EndpointPath> = Endpoints[P]['output'];

/** An answer to one endpoint, its body parsed as JSON and not yet trusted. */
export interface Answer<P extends EndpointPath> {
  status: number;
  headers: Headers;
  /** The body as it came, for comparing whole. */
  body: unknown;
  /** The body of a success with this status (200 unless told), checked and typed; fails the test on any other answer. */
  success(status?: number): Success<P>;
  /**
   * The error envelope of an error answer (with this status, when told), checked and typed, its code
   * one its route documents for the status; fails the test on any other answer.
   */
  failure(status?: number): ErrorBody;
}

/** Fails the test unless `body` is what `path` documents for `status` (a success, or an error with one of its codes). */
export type SuccessCheck = (path: EndpointPath, status: number, body: unknown) => void;

/** Checks against the routes' own zod schemas (the ones the OpenAPI document is built from), for an app in this process. */
export function routeSchemaCheck(routes: Route[]): SuccessCheck {
  return (path, status, body) => {
    const route = routes.find((r) => r.path === path && r.method === ENDPOINTS[path].method);
    assert.ok(route, `no route serves ${ENDPOINTS[path].method} ${path}`);
    const schema = route.responses[status]?.schema;
    assert.ok(schema, `${path} documents no schema for ${status}`);
    const checked = schema.safeParse(body);
    assert.ok(checked.success, `${path} ${status}: the body does not match the documented schema (${checked.error?.message})`);
    const { codes } = route.responses[status]!;
    const { code } = body as { code?: string };
    if (codes)
      assert.ok(
        codes.some((known) => known === code),
        `${path} ${status}: code ${code} is not one it documents (${codes.join(', ')})`,
      );
  };
}

/** Reads `response`, the answer to `path`. */
export async function readAnswer<P extends EndpointPath>(check: SuccessCheck, path: P, response: Response): Promise<Answer<P>> {
  const text = await response.text();
  const body: unknown = JSON.parse(text);
  const what = `${ENDPOINTS[path].method} ${path} answered ${response.status} ${text.slice(0, 500)}`;
  return {
    status: response.status,
    headers: response.headers,
    body,
    success(status = 200) {
      assert.equal(response.status, status, `a success was expected: ${what}`);
      check(path, status, body);
      // The raw body, not zod's copy, so keys the schema does not name still show in a comparison.
      return body as Success<P>;
    },
    failure(status) {
      if (status === undefined) assert.ok(response.status >= 400, `an error was expected: ${what}`);
      else assert.equal(response.status, status, `an error was expected: ${what}`);
      const checked = ErrorSchema.strict().safeParse(body);
      assert.ok(checked.success, `not the error envelope (${checked.error?.message}): ${what}`);
      check(path, response.status, body);
      return checked.data;
    },
  };
}
