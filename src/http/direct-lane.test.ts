import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createLogger } from '../log.ts';
import { refusalBody } from './app-error.ts';
import { directLane } from './direct-lane.ts';
import { createNodeServer } from '../serving/node-server.ts';
import { defineRoute } from './route.ts';

// Which requests the direct lane answers, and which it leaves to the app: here the app is a
// function that says it answered, and the lane's route one that says it did.

test('the lane answers its routes’ GETs; every other request, and an answer that throws, goes to the app', async () => {
  const observed: string[] = [];
  const route = defineRoute({
    method: 'GET',
    path: '/plain',
    tag: 'Test',
    summary: 'Answers from its target alone',
    cors: 'any',
    responses: {},
    answer: (request) => {
      if (request.target.includes('throw')) throw new Error('a bug');
      return { status: 200, headers: { 'Content-Type': 'text/plain' }, body: new TextEncoder().encode(`lane ${request.target}`) };
    },
  });
  const lane = directLane([route], {
    log: createLogger('silent'),
    metrics: { observeRequest: (path, method, status) => observed.push(`${method} ${path} ${status}`) },
    isShopOrigin: () => false,
  });
  const server = createNodeServer((request) => new Response('app', { headers: { 'X-Answered-By': `app ${request.method}` } }), {
    hostname: '127.0.0.1',
    lane,
    log: createLogger('silent'),
    refusal: refusalBody,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const text = async (path: string, method = 'GET') => (await fetch(url + path, { method })).text();
    assert.equal(await text('/plain?q=1'), 'lane /plain?q=1');
    assert.equal(await text('/plain'), 'lane /plain');
    const direct = await fetch(`${url}/plain?q=2`);
    assert.equal(direct.headers.get('access-control-allow-origin'), '*');
    assert.equal(direct.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(direct.headers.get('content-length'), String('lane /plain?q=2'.length));
    for (const path of ['/plain/', '/%70lain', '/other', '/plain?throw']) assert.equal(await text(path), 'app', path);
    assert.equal((await fetch(`${url}/plain`, { method: 'HEAD' })).headers.get('x-answered-by'), 'app HEAD');
    assert.equal(await text('/plain', 'POST'), 'app');
    assert.deepEqual(observed, ['GET /plain 200', 'GET /plain 200', 'GET /plain 200']);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a route answered from its target alone can need nothing the app checks before it', () => {
  const plain = {
    method: 'GET' as const,
    path: '/plain',
    tag: 'Test',
    summary: 'Answers from its target alone',
    cors: 'any' as const,
    responses: {},
    answer: () => ({ status: 200 as const, headers: {}, body: null }),
  };
  assert.doesNotThrow(() => defineRoute(plain));
  for (const needs of [{ admin: true }, { origins: 'shop' as const }, { idempotent: true }, { method: 'POST' as const }]) {
    assert.throws(() => defineRoute({ ...plain, ...needs }), /answers from its target alone/, JSON.stringify(needs));
  }
});
