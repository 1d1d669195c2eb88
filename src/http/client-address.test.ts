import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientResolver } from './client-address.ts';

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

test('trusted addresses and ranges: the first untrusted address from the right', () => {
  const client = clientResolver({ addresses: ['127.0.0.1', '10.0.0.0/8', 'fd00::/8'] });
  assert.equal(client('127.0.0.1', '6.6.6.6, 203.0.113.7, 10.1.2.3'), '203.0.113.7');
  assert.equal(client('::ffff:127.0.0.1', '203.0.113.7'), '203.0.113.7');
  assert.equal(client('fd00::1', '2001:db8::5, fd12::9'), '2001:db8::5');
  assert.equal(client('127.0.0.1', '10.0.0.5, 10.0.0.6'), '10.0.0.5', 'all trusted: the leftmost');
  assert.equal(client('127.0.0.1', undefined), '127.0.0.1');
  assert.equal(client('203.0.113.9', '198.51.100.1'), '203.0.113.9', 'a connection not from a proxy: its own address, the header ignored');
  assert.equal(client('127.0.0.1', 'not-an-address, 10.0.0.5'), 'not-an-address', 'what a trusted proxy passed on, however odd');
});
