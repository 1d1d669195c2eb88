import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RecentCache } from './recent-cache.ts';
import { answerWeight, serializeJson } from './cached-json.ts';

test('a cache of answers weighed by answerWeight holds its count of small answers, and its bytes of large ones', () => {
  const weigh = answerWeight(100, 100 * 1024);
  const small = serializeJson({ page: 'small' });
  const large = serializeJson({ page: 'x'.repeat(50 * 1024) });
  assert.equal(weigh(small, 'key'), 1);
  assert.equal(weigh(large, 'key'), 51, 'one for every 1 KiB begun, its key included');

  const cache = new RecentCache<string, typeof small>(100, { weigh });
  for (let n = 0; n < 100; n++) cache.set(`small ${n}`, small);
  const smallHeld = Array.from({ length: 100 }, (_, n) => cache.get(`small ${n}`)).filter(Boolean).length;
  assert.ok(smallHeld >= 50, `${smallHeld} small answers held`);

  for (let n = 0; n < 100; n++) cache.set(`large ${n}`, large);
  const largeHeld = Array.from({ length: 100 }, (_, n) => cache.get(`large ${n}`)).filter(Boolean).length;
  assert.ok(largeHeld <= 2, `${largeHeld} answers of 50 KiB held in a cache of 100 KiB`);
});

test('a serialized answer holds its own bytes, not a slice of a buffer shared with others, and they are its UTF-8 JSON', () => {
  const value = { query: 'ユーロラック', results: [{ title: 'ケース' }] };
  const first = serializeJson(value);
  const second = serializeJson({ query: 'VCO' });
  assert.equal(first.bytes.buffer.byteLength, first.bytes.byteLength);
  assert.notEqual(first.bytes.buffer, second.bytes.buffer);
  assert.deepEqual(Buffer.from(first.bytes), Buffer.from(JSON.stringify(value)), 'the first still holds its own after the second');
  const large = { text: 'モジュール🎛'.repeat(20_000) };
  assert.deepEqual(Buffer.from(serializeJson(large).bytes), Buffer.from(JSON.stringify(large)));
});
