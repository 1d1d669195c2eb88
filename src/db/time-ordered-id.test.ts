import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validate, version } from 'uuid';
import { uuidV7 } from './time-ordered-id.ts';

test('is a valid version 7 UUID that starts with the time', () => {
  const now = Date.UTC(2026, 10, 22, 9, 30, 0, 123);
  const id = uuidV7(now);
  assert.ok(validate(id), id);
  assert.equal(version(id), 7);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), now);
});

test('ids of later milliseconds sort after earlier ones; ids of one millisecond differ', () => {
  const ids = Array.from({ length: 1_000 }, (_, i) => uuidV7(1_700_000_000_000 + i));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(Array.from({ length: 1_000 }, () => uuidV7(1_700_000_000_000))).size, 1_000);
});
