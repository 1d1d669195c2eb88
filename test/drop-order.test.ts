import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { openDatabase, type Database } from '../src/db/database.ts';
import { createLogger } from '../src/log.ts';
import { upsertPreorder } from '../src/preorders/admin.ts';
import { reserve, type ReserveResult } from '../src/reservations/reserve.ts';
import { DIALECTS, freshTarget } from './helpers/dialects.ts';
import { catalog, reservationDeps } from './helpers/reservation-deps.ts';

// First come, first served in a drop (docs/preorders.md), on real stores: customers reach an
// instance a few at a time, each stamped with the moment it did (the `now` the route passes), and
// ask for a campaign's seats until it is sold out. No customer may be refused while one who came
// later is seated: within an instance not at all, and across two instances on one PostgreSQL by no
// more than 100 ms. The reservation use case with its store's own writer, as the app assembles it.

const PRODUCT = 'kumo-vco-2';
const CAPACITY = 40;
/** 300 customers, 6 in each turn of the event loop, so many batches are under way at once. */
const ARRIVALS = { turns: 50, perTurn: 6 };

/** An instance: its own connection to the store and its own writer, as each service process has. */
async function instance(url: Awaited<ReturnType<typeof freshTarget>>) {
  const database = await openDatabase(url, createLogger('silent'));
  const deps = reservationDeps(database);
  return {
    database,
    reserve: (i: number, at: Date) => reserve(deps, { name: `先着 ${i}`, email: `fan${i}@example.com`, productSlug: PRODUCT }, at),
  };
}

interface Answer {
  at: number;
  result: ReserveResult;
}

/** Sends the crowd, customer i to instance i mod n, and answers each one's stamp and outcome. */
async function crowd(instances: Awaited<ReturnType<typeof instance>>[]): Promise<Answer[]> {
  const answers: Promise<Answer>[] = [];
  for (let turn = 0; turn < ARRIVALS.turns; turn++) {
    for (let k = 0; k < ARRIVALS.perTurn; k++) {
      const i = turn * ARRIVALS.perTurn + k;
      const at = new Date();
      answers.push(instances[i % instances.length]!.reserve(i, at).then((result) => ({ at: at.getTime(), result })));
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return Promise.all(answers);
}

/** How long before the last seated customer each refused one came (none: none came before). */
function inversions(answers: Answer[]): number[] {
  for (const { result } of answers) assert.ok(result.ok || result.reason === 'soldOut', JSON.stringify(result));
  const lastSeated = Math.max(...answers.filter((a) => a.result.ok).map((a) => a.at));
  return answers.filter((a) => !a.result.ok && a.at < lastSeated).map((a) => lastSeated - a.at);
}

async function openCampaign(database: Database): Promise<void> {
  const saved = await upsertPreorder(
    { database, catalog },
    { productSlug: PRODUCT, settings: { capacity: CAPACITY, per_customer_limit: 1 } },
  );
  assert.equal(saved.outcome, 'saved');
}

for (const dialect of DIALECTS) {
  describe(`first come, first served in a drop (${dialect})`, () => {
    const opened: Database[] = [];
    after(() => Promise.all(opened.map((database) => database.close())));

    test(`one instance: of ${ARRIVALS.turns * ARRIVALS.perTurn} customers the first ${CAPACITY} are seated, none refused before a seated one`, async () => {
      const one = await instance(await freshTarget(dialect));
      opened.push(one.database);
      await openCampaign(one.database);
      const answers = await crowd([one]);
      assert.deepEqual(inversions(answers), []);
      assert.deepEqual(
        answers.flatMap((a, i) => (a.result.ok ? [i] : [])),
        Array.from({ length: CAPACITY }, (_, i) => i),
      );
    });

    if (dialect === 'postgres')
      test('two instances on one database: exactly the capacity, no customer refused over 100 ms before a seated one', async () => {
        const target = await freshTarget(dialect);
        const both = [await instance(target), await instance(target)];
        opened.push(...both.map((i) => i.database));
        await openCampaign(both[0]!.database);
        const answers = await crowd(both);
        assert.equal(answers.filter((a) => a.result.ok).length, CAPACITY);
        assert.deepEqual(
          inversions(answers).filter((ms) => ms > 100),
          [],
        );
      });
  });
}
