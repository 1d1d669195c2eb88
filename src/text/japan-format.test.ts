import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatJapanTime, formatYen } from './japan-format.ts';

// The formatters these functions stand in for: their text must stay the same, character for character.
const intlTime = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const intlNumber = new Intl.NumberFormat('ja-JP');

test('a time reads as in Japan, to the minute', () => {
  assert.equal(formatJapanTime('2026-11-22T00:18:59.999Z'), '2026年11月22日 09:18');
  assert.equal(formatJapanTime('2026-12-31T15:00:00Z'), '2027年1月1日 00:00');
  assert.equal(formatJapanTime('2028-02-28T15:05:00+00:00'), '2028年2月29日 00:05');
  assert.throws(() => formatJapanTime('not a time'), RangeError);
});

test('any time since 1952 reads as Intl.DateTimeFormat writes it for Asia/Tokyo', () => {
  fc.assert(
    fc.property(fc.date({ min: new Date('1952-01-01T00:00:00Z'), max: new Date('2300-01-01T00:00:00Z'), noInvalidDate: true }), (date) => {
      assert.equal(formatJapanTime(date.toISOString()), intlTime.format(date));
    }),
    { numRuns: 5_000 },
  );
});

test('a price reads in yen with its digits grouped, or as not set yet', () => {
  assert.equal(formatYen(42000), '¥42,000');
  assert.equal(formatYen(0), '¥0');
  assert.equal(formatYen(999), '¥999');
  assert.equal(formatYen(1234567.5), '¥1,234,567.5');
  assert.equal(formatYen(null), '価格未定');
});

test('any price reads as Intl.NumberFormat writes it for ja-JP, decimals and rounding included', () => {
  const edges = [-0, 0.0005, 0.00049, 0.9995, 999.9995, 1.2345, 0.1 + 0.2, 5e-324, 1e-7, 2 ** 60, 1e21, Number.MAX_VALUE, -1234.5678];
  for (const price of edges) assert.equal(formatYen(price), `¥${intlNumber.format(price)}`, String(price));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: 0, max: 10_000_000 }).map((thousandths) => thousandths / 1000 + 0.0005),
      ),
      (price) => {
        assert.equal(formatYen(price), `¥${intlNumber.format(price)}`);
      },
    ),
    { numRuns: 5_000 },
  );
});
