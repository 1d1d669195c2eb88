import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClientBudgets } from './rate-limit.ts';

function clock(start = 1_000_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

test('allows the budget within a minute, then refuses with the seconds left', () => {
  const { time, now } = clock();
  const budgets = new ClientBudgets(3, now);
  assert.deepEqual([budgets.take('a'), budgets.take('a'), budgets.take('a')], [0, 0, 0]);
  time.now += 15_000;
  assert.equal(budgets.take('a'), 45);
  time.now += 44_500;
  assert.equal(budgets.take('a'), 1);
  time.now += 500;
  assert.equal(budgets.take('a'), 0, 'a new window starts a minute after the first request');
});

test('refused requests count too, and clients have separate budgets', () => {
  const { now } = clock();
  const budgets = new ClientBudgets(1, now);
  assert.equal(budgets.take('a'), 0);
  assert.ok(budgets.take('a') > 0);
  assert.ok(budgets.take('a') > 0);
  assert.equal(budgets.take('b'), 0);
});

test('forgets clients whose window has ended', () => {
  const { time, now } = clock();
  const budgets = new ClientBudgets(5, now);
  for (let i = 0; i < 100; i++) budgets.take(`client-${i}`);
  assert.equal(budgets.clients, 100);
  time.now += 60_000;
  budgets.take('late');
  assert.equal(budgets.clients, 1);
});
