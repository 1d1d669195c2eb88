import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Hono } from 'hono';
import { refusalBody } from '../http/app-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import { mountRoutes } from '../http/mount.ts';
import { reply } from '../http/reply.ts';
import { requestMethod } from '../http/request.ts';
import { defineRoute } from '../http/route.ts';
import { shopOrigins } from '../http/cors.ts';
import { createLogger } from '../log.ts';
import { directLane } from './direct-lane.ts';
import { createNodeServer } from './node-server.ts';

// Which requests the direct lane answers without the app's router, and which it leaves to it: the
// app's fetch counts what reaches it, and each handler says the method it was sent.

test('the lane answers GETs and HEADs of exact paths with their handlers; any other request goes to the router', async () => {
  const answering = (path: string) =>
    defineRoute({
      method: 'GET',
      path,
      tag: 'Test',
      summary: 'Says how it was asked',
      cors: 'any',
      responses: {},
      handle: (c) => reply(c, 200, `${requestMethod(c)} ${path}`, { 'Content-Type': 'text/plain' }),
    });
  const app = new Hono<AppEnv>();
  const exact = mountRoutes(app, [answering('/plain'), answering('/items/:id')], {
    adminToken: 'x'.repeat(32),
    adminThrottle: async (_c, authenticate) => authenticate('test'),
    sessions: { read: async () => undefined },
    isShopOrigin: shopOrigins({}),
    serviceOrigin: 'http://localhost',
    clientAddress: () => '192.0.2.1',
    log: createLogger('silent'),
    metrics: { observeRequest: () => {} },
  });
  assert.deepEqual([...exact.keys()], ['/plain'], 'only the paths without parameters');
  let routed = 0;
  const server = createNodeServer(
    (request, bindings) => {
      routed++;
      return app.fetch(request, bindings);
    },
    { hostname: '127.0.0.1', lane: directLane(exact), log: createLogger('silent'), refusal: refusalBody },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ask = async (path: string, method = 'GET') => {
    const before = routed;
    const response = await fetch(url + path, { method });
    return { status: response.status, text: await response.text(), routed: routed > before };
  };
  try {
    assert.deepEqual(await ask('/plain?q=1'), { status: 200, text: 'GET /plain', routed: false });
    assert.deepEqual(await ask('/plain', 'HEAD'), { status: 200, text: '', routed: false });
    assert.deepEqual(await ask('/%70lain'), { status: 200, text: 'GET /plain', routed: true }, 'a path written another way');
    assert.deepEqual(await ask('/items/7'), { status: 200, text: 'GET /items/:id', routed: true }, 'a path with parameters');
    assert.deepEqual(await ask('/items/7', 'HEAD'), { status: 200, text: '', routed: true });
    assert.deepEqual({ ...(await ask('/plain/')), text: '' }, { status: 404, text: '', routed: true });
    assert.deepEqual({ ...(await ask('/plain', 'POST')), text: '' }, { status: 405, text: '', routed: true });
    assert.deepEqual(await ask('/plain', 'OPTIONS'), { status: 204, text: '', routed: true });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
