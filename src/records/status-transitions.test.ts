import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowsMove, type StatusTable } from './status-transitions.ts';

const table: StatusTable<'a' | 'b' | 'c'> = {
  statuses: ['a', 'b', 'c'],
  moves: [
    ['a', 'b'],
    ['b', 'c'],
  ],
};

test('allows exactly the listed moves, one way, and staying put', () => {
  assert.equal(allowsMove(table, 'a', 'b'), true);
  assert.equal(allowsMove(table, 'b', 'c'), true);
  assert.equal(allowsMove(table, 'b', 'a'), false);
  assert.equal(allowsMove(table, 'a', 'c'), false);
  for (const s of table.statuses) assert.equal(allowsMove(table, s, s), true);
});

test('a status outside the table (a legacy one) may move nowhere', () => {
  assert.equal(allowsMove(table, 'reserved', 'a'), false);
});
