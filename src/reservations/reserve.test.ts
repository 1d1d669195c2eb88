import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase, type Database } from '../db/database.ts';
import { createLogger } from '../log.ts';
import { reservationDeps } from '../../test/helpers/reservation-deps.ts';
import { reserve } from './reserve.ts';

// The use case on a real SQLite file, with its clock passed in: the reservation and its messages
// carry the time it was taken, also when reservations taken apart share one group commit.

let dir: string;
let database: Database;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tenpo-reserve-'));
  database = await openDatabase({ dialect: 'sqlite', path: join(dir, 'db.sqlite') }, createLogger('silent'));
});
after(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the reservation and its messages carry the time it was taken, each its own in a shared commit', async () => {
  let wakes = 0;
  const deps = reservationDeps(database, () => void (wakes += 1));
  const request = { name: '山田 太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' };
  const times = [new Date('2030-01-01T09:00:00.000Z'), new Date('2030-01-01T09:00:00.250Z')];
  // Asked for in the same turn, so both are written by one transaction.
  const results = await Promise.all(times.map((now) => reserve(deps, request, now)));
  assert.equal(wakes, 2);

  for (const [i, result] of results.entries()) {
    assert.ok(result.ok);
    const row = await database.db
      .selectFrom('reservations')
      .select('created_at')
      .where('id', '=', result.reservationId)
      .executeTakeFirstOrThrow();
    const messages = await database.db
      .selectFrom('outbox')
      .select(['created_at', 'next_attempt_at'])
      .where('record_id', '=', result.reservationId)
      .execute();
    assert.equal(row.created_at, times[i]!.toISOString());
    assert.deepEqual(
      messages.map((m) => ({ ...m })),
      [0, 1].map(() => ({ created_at: times[i]!.toISOString(), next_attempt_at: times[i]!.toISOString() })),
    );
  }
});
