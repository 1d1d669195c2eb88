import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HashTurns } from './hash-turns.ts';

test('lanes are served in turn: one lane’s hundred waiting hold up another’s one by the hash running only', async () => {
  const turns = new HashTurns(2);
  const order: string[] = [];
  const release: (() => void)[] = [];
  const hash = (lane: string) =>
    turns.run(lane, async () => {
      order.push(lane);
      await new Promise<void>((resolve) => release.push(resolve));
    });
  const flood = Array.from({ length: 100 }, () => hash('flood'));
  const owner = hash('owner');
  await new Promise((resolve) => setImmediate(resolve));
  // One of the flood's runs; the owner's took the other turn at once.
  assert.deepEqual(order, ['flood', 'owner']);
  while (release.length > 0) {
    release.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all([...flood, owner]);
  assert.equal(turns.done, 101);
  assert.equal(order.length, 101);
});
