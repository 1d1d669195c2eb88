import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIso8601 } from './iso-8601.ts';

const iso = (value: string) => {
  const time = parseIso8601(value);
  return time === undefined ? undefined : new Date(time).toISOString();
};

test('dates and date-times, UTC unless an offset says otherwise', () => {
  assert.equal(iso('2026-03-01'), '2026-03-01T00:00:00.000Z');
  assert.equal(iso('2026-03-01T09:30'), '2026-03-01T09:30:00.000Z');
  assert.equal(iso('2026-03-01T09:30:15.25Z'), '2026-03-01T09:30:15.250Z');
  assert.equal(iso('2026-03-01T09:30:15.123456Z'), '2026-03-01T09:30:15.123Z');
  assert.equal(iso('2026-03-01T09:30+09:00'), '2026-03-01T00:30:00.000Z');
  assert.equal(iso('2026-03-01T09:30:00-0130'), '2026-03-01T11:00:00.000Z');
  assert.equal(iso('2024-02-29'), '2024-02-29T00:00:00.000Z');
});

test('anything else, impossible dates included, is refused', () => {
  for (const value of [
    '',
    'yesterday',
    '2026-3-1',
    '2025-02-29',
    '2026-02-30',
    '2026-13-01',
    '2026-03-01T24:00',
    '2026-03-01T10:60',
    '2026-03-01T10:00+24:00',
    '1772323200000',
    'March 1, 2026',
    '+012026-03-01',
    '0000-01-01T00:00+01:00',
  ]) {
    assert.equal(parseIso8601(value), undefined, value);
  }
});
