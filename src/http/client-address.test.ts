import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientResolver, trustedPeer } from './client-address.ts';

test('no proxy: the connection, whatever X-Forwarded-For claims', () => {
  const client = clientResolver({ hops: 0 });
  assert.equal(client('203.0.113.1', '198.51.100.9'), '203.0.113.1');
  assert.equal(client('::ffff:203.0.113.1', undefined), '203.0.113.1');
});

test('n proxies: the n-th entry from the right; forged entries further left change nothing', () => {
  const one = clientResolver({ hops: 1 });
  assert.equal(one('10.0.0.1', '203.0.113.5'), '203.0.113.5');
  assert.equal(one('10.0.0.1', '6.6.6.6, 203.0.113.5'), '203.0.113.5');
  assert.equal(one('10.0.0.1', undefined), '10.0.0.1', 'no header: the connection');
  const two = clientResolver({ hops: 2 });
  assert.equal(two('10.0.0.1', '6.6.6.6, 203.0.113.5, 10.0.0.7'), '203.0.113.5');
  assert.equal(two('10.0.0.1', '203.0.113.5, 10.0.0.7'), '203.0.113.5');
  assert.equal(two('10.0.0.1', '10.0.0.7'), '10.0.0.7', 'fewer entries than hops: the leftmost');
  assert.equal(two('10.0.0.1', ' ::ffff:203.0.113.5 ,, 10.0.0.7'), '203.0.113.5');
});

test('n proxies: a connection from a public address came past the proxies, and its X-Forwarded-For is its own claim', () => {
  const one = clientResolver({ hops: 1 });
  for (const spoofed of ['198.51.100.1', '198.51.100.2', '127.0.0.1'])
    assert.equal(one('203.0.113.9', spoofed), '203.0.113.9', 'rotating or spoofing the header changes nothing');
  for (const proxy of ['127.0.0.1', '::1', '10.1.2.3', '172.20.0.5', '192.168.1.1', '100.64.0.9', 'fd12::1', '::ffff:192.168.0.2'])
    assert.equal(one(proxy, '203.0.113.5'), '203.0.113.5', `a proxy at ${proxy}`);
  for (const outside of ['172.32.0.1', '11.0.0.1', '2001:db8::1']) assert.equal(one(outside, '203.0.113.5'), outside);
});

test('only entries that are IP addresses count: garbage can neither pose as a client nor become one', () => {
  const one = clientResolver({ hops: 1 });
  assert.equal(one('10.0.0.1', `203.0.113.5, ${'x'.repeat(8000)}`), '203.0.113.5');
  assert.equal(one('10.0.0.1', 'not-an-address'), '10.0.0.1', 'nothing usable: the connection');
  const listed = clientResolver({ addresses: ['127.0.0.1'] });
  assert.equal(listed('127.0.0.1', 'not-an-address, 203.0.113.7'), '203.0.113.7');
  assert.equal(listed('127.0.0.1', '<script>, unknown'), '127.0.0.1');
});

test('trusted addresses and ranges: the first untrusted address from the right', () => {
  const client = clientResolver({ addresses: ['127.0.0.1', '10.0.0.0/8', 'fd00::/8'] });
  assert.equal(client('127.0.0.1', '6.6.6.6, 203.0.113.7, 10.1.2.3'), '203.0.113.7');
  assert.equal(client('::ffff:127.0.0.1', '203.0.113.7'), '203.0.113.7');
  assert.equal(client('fd00::1', '2001:db8::5, fd12::9'), '2001:db8::5');
  assert.equal(client('127.0.0.1', '10.0.0.5, 10.0.0.6'), '10.0.0.5', 'all trusted: the leftmost');
  assert.equal(client('127.0.0.1', undefined), '127.0.0.1');
  assert.equal(client('203.0.113.9', '198.51.100.1'), '203.0.113.9', 'a connection not from a proxy: its own address, the header ignored');
});

test('the peers trusted as proxies: none without TRUST_PROXY, private ones with a hop count, the listed ones with a list', () => {
  assert.equal(trustedPeer({ hops: 0 })('127.0.0.1'), false);
  assert.equal(trustedPeer({ hops: 1 })('10.0.0.1'), true);
  assert.equal(trustedPeer({ hops: 1 })('203.0.113.1'), false);
  assert.equal(trustedPeer({ addresses: ['203.0.113.0/24'] })('::ffff:203.0.113.1'), true);
  assert.equal(trustedPeer({ addresses: ['203.0.113.0/24'] })('10.0.0.1'), false);
});
