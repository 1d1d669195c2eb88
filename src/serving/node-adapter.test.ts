import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Hono } from 'hono';
import { createLogger } from '../log.ts';
import type { AppEnv } from '../http/app-env.ts';
import { createNodeServer } from './node-server.ts';
import { refusalBody } from '../http/app-error.ts';
import { reply } from '../http/reply.ts';
import { requestMethod } from '../http/request.ts';

// The app under Node's server gets a request that holds its method and URL; whatever else a
// handler asks of it (headers, the body) comes from a web Request made then. The answers the
// adapter writes are what every test that starts the service checks; here, the request.

test('a handler that asks the request for its headers and body gets them, the body as sent', async () => {
  const app = new Hono<AppEnv>();
  app.post('/echo', async (c) => {
    const body: unknown = await c.req.json();
    return reply(c, 200, JSON.stringify({ method: c.req.method, header: c.req.header('x-sent'), body }), {
      'Content-Type': 'application/json',
    });
  });
  const server = createNodeServer(app.fetch, { hostname: '127.0.0.1', log: createLogger('silent'), refusal: refusalBody });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`, {
      method: 'POST',
      headers: { 'X-Sent': 'yes', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: '山田' }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { method: 'POST', header: 'yes', body: { name: '山田' } });
  } finally {
    server.close();
  }
});

// A HEAD reaches the app as its GET; a streamed answer (a CSV export) is then cancelled, not read
// to its end for a client that will not get it.
test('a HEAD is answered as its GET without the body, and a streamed body is cancelled', async () => {
  let cancelled = false;
  let pulled = 0;
  const app = new Hono<AppEnv>();
  app.get('/export', (c) =>
    reply(
      c,
      200,
      new ReadableStream<Uint8Array>({
        pull: (controller) => {
          pulled++;
          controller.enqueue(new TextEncoder().encode('row\n'));
        },
        cancel: () => {
          cancelled = true;
        },
      }),
      { 'Content-Type': 'text/csv', 'X-Method': requestMethod(c) },
    ),
  );
  const server = createNodeServer(app.fetch, { hostname: '127.0.0.1', log: createLogger('silent'), refusal: refusalBody });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/export`, { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-method'), 'HEAD');
    assert.equal(response.headers.get('content-type'), 'text/csv');
    assert.equal(await response.text(), '');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(cancelled, 'the stream is cancelled');
    assert.ok(pulled <= 2, `read ${pulled} chunks`);
  } finally {
    server.close();
  }
});
