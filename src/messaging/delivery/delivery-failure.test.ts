import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPermanentHttpStatus, isPermanentSmtpCode, MAX_RETRY_AFTER_MS, retryAfterMs } from './delivery-failure.ts';

test('a 4xx is permanent, except 408, 409 and 429; 5xx and anything else is retried', () => {
  const permanent = [400, 401, 403, 404, 410, 413, 422, 451, 499];
  const retried = [408, 409, 429, 500, 502, 503, 504, 301, 0];
  assert.deepEqual(permanent.filter(isPermanentHttpStatus), permanent);
  assert.deepEqual(retried.filter(isPermanentHttpStatus), []);
});

test('an SMTP 5xx reply is permanent, a 4xx one is not', () => {
  assert.deepEqual([550, 553, 554, 535, 500].map(isPermanentSmtpCode), [true, true, true, true, true]);
  assert.deepEqual([421, 450, 451, 452, 250].map(isPermanentSmtpCode), [false, false, false, false, false]);
});

test('Retry-After in seconds or as an HTTP date, bounded to an hour; anything else is ignored', () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);
  assert.equal(retryAfterMs('120', now), 120_000);
  assert.equal(retryAfterMs(' 0 ', now), 0);
  assert.equal(retryAfterMs('Mon, 23 Nov 2026 12:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('Mon, 23 Nov 2026 11:00:00 GMT', now), 0, 'a date past is now');
  assert.equal(retryAfterMs('86400', now), MAX_RETRY_AFTER_MS);
  assert.equal(retryAfterMs('Tue, 24 Nov 2026 12:00:00 GMT', now), MAX_RETRY_AFTER_MS);
  for (const value of [undefined, '', '-5', '1.5', 'soon', '12abc', '2026-11-23', 'Mon, 99 Foo 2026']) {
    assert.equal(retryAfterMs(value, now), undefined, String(value));
  }
});
