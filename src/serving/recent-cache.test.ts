import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeysSeen, RecentCache } from './recent-cache.ts';

test('a value used in every half capacity of additions stays; one not used is forgotten, and told so', () => {
  const forgotten: string[] = [];
  const cache = new RecentCache<string, string>(10, { forget: (value) => forgotten.push(value) });
  cache.set('kept', 'K');
  cache.set('unused', 'U');
  for (let n = 0; n < 100; n++) {
    cache.set(`other ${n}`, `O${n}`);
    if (n % 4 === 0) assert.equal(cache.get('kept'), 'K');
  }
  assert.equal(cache.get('unused'), undefined);
  assert.ok(forgotten.includes('U'));
  assert.ok(!forgotten.includes('K'));
});

test('never holds more than its capacity, counted by weight', () => {
  const cache = new RecentCache<number, number>(100, { weigh: (value) => value });
  for (let n = 0; n < 1000; n++) cache.set(n, 7);
  const held = Array.from({ length: 1000 }, (_, n) => cache.get(n)).filter((value) => value !== undefined);
  assert.ok(held.length * 7 <= 100 + 7, `${held.length} values of weight 7 held`);
  assert.ok(held.length * 7 >= 50 - 7, `${held.length} values of weight 7 held: at least half the capacity`);
});

test('getOrCompute computes a value once while it is kept, and replacing a value forgets the one replaced', () => {
  const forgotten: string[] = [];
  const cache = new RecentCache<string, string>(10, { forget: (value) => forgotten.push(value) });
  let computed = 0;
  const compute = () => (computed++, 'V');
  assert.equal(cache.getOrCompute('k', compute), 'V');
  assert.equal(cache.getOrCompute('k', compute), 'V');
  assert.equal(computed, 1);
  cache.set('k', 'W');
  assert.equal(cache.get('k'), 'W');
  assert.deepEqual(forgotten, ['V']);
});

test('with keepOnSecondUse, getOrCompute keeps a value only when its key was asked for before', () => {
  const cache = new RecentCache<string, string>(100, { keepOnSecondUse: 3 });
  let computed = 0;
  const compute = () => `V${++computed}`;
  assert.equal(cache.getOrCompute('k', compute), 'V1');
  assert.equal(cache.get('k'), undefined, 'not kept on its first use');
  assert.equal(cache.getOrCompute('k', compute), 'V2');
  assert.equal(cache.getOrCompute('k', compute), 'V2', 'kept on its second');
  assert.equal(computed, 2);

  // The keys asked for are remembered up to the bound (k, a, b), then forgotten together.
  for (const key of ['a', 'b', 'c', 'd']) cache.getOrCompute(key, compute);
  cache.getOrCompute('a', compute);
  assert.equal(cache.get('a'), undefined, 'a was forgotten when c came past the bound of 3');
  cache.getOrCompute('d', compute);
  assert.notEqual(cache.get('d'), undefined);
  cache.set('e', 'E');
  assert.equal(cache.get('e'), 'E', 'set keeps at once');
});

test('KeysSeen tells a string seen before from a new one, for as many as its bound, then starts again', () => {
  const seen = new KeysSeen(10_000);
  const keys = Array.from({ length: 10_000 }, (_, i) => `${i % 7}\nキーワード ${i}`);
  assert.deepEqual(
    keys.filter((key) => seen.seenBefore(key)),
    [],
    'every key is new the first time',
  );
  assert.deepEqual(
    keys.filter((key) => !seen.seenBefore(key)),
    [],
    'and seen the second time',
  );
  assert.equal(seen.seenBefore('one more'), false);
  assert.equal(seen.seenBefore(keys[0]!), false, 'the 10,001st key forgot the others');
  assert.equal(seen.seenBefore('one more'), true);
});
