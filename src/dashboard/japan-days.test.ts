import assert from 'node:assert/strict';
import { test } from 'node:test';
import { japanDays } from './japan-days.ts';

test('the days end with today in Japan, which starts at 15:00 UTC the day before', () => {
  const { dates, firstHour } = japanDays(new Date('2026-03-10T14:59:59.999Z'), 3);
  assert.deepEqual(dates, ['2026-03-08', '2026-03-09', '2026-03-10']);
  assert.equal(firstHour, '2026-03-07T15');

  const after = japanDays(new Date('2026-03-10T15:00:00.000Z'), 3);
  assert.deepEqual(after.dates, ['2026-03-09', '2026-03-10', '2026-03-11']);
  assert.equal(after.firstHour, '2026-03-08T15');
});

test('thirty days across a month and a year end, each once, oldest first', () => {
  const { dates, firstHour } = japanDays(new Date('2026-01-05T03:00:00.000Z'), 30);
  assert.equal(dates.length, 30);
  assert.equal(new Set(dates).size, 30);
  assert.equal(dates[0], '2025-12-07');
  assert.equal(dates[29], '2026-01-05');
  assert.deepEqual([...dates].sort(), dates);
  assert.equal(firstHour, '2025-12-06T15');
});
