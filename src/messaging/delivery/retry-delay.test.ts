import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryDelayMs } from './retry-delay.ts';

const timings = { baseMs: 1_000, capMs: 60_000 };

test('doubles with each attempt, up to the cap', () => {
  const noJitter = () => 0;
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempt) => retryDelayMs(attempt, timings, noJitter)),
    [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000],
  );
});

test('jitter takes off at most half, never adds', () => {
  assert.equal(
    retryDelayMs(3, timings, () => 0.999999),
    2_000,
  );
  assert.equal(
    retryDelayMs(3, timings, () => 0.5),
    3_000,
  );
  for (let i = 0; i < 200; i++) {
    const delay = retryDelayMs(10, timings);
    assert.ok(delay >= 30_000 && delay <= 60_000, String(delay));
  }
});
