import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DIALECTS, freshTarget } from '../../test/helpers/dialects.ts';
import { openDatabase } from '../db/database.ts';
import { createLogger } from '../log.ts';
import { keywordFigures } from './analytics.ts';
import { countKeywordLogSince, createKeywordLogStore, type KeywordLogEntry } from './store.ts';

// The dashboard's search figures come from hourly counts plus the entries of the partial hour the
// window starts in, the settled hours' part kept between requests; wherever the window starts,
// whenever it is asked and whatever is logged after a figure was kept, they must equal counting the
// entries themselves.

/** Five common keywords and 60 rare ones, so the settled top kept (as many as asked for) leaves most out. */
const keywords = ['vco', 'シンセ', 'delay', 'ないもの', 'x', ...Array.from({ length: 60 }, (_, i) => `rare${i}`)];

/** Entries spread over three days, some at hour boundaries, appended in several batches. */
function entries(): KeywordLogEntry[] {
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: 600 }, (_, i) => ({
    keyword: keywords[random() < 0.6 ? Math.floor(random() * 5) : Math.floor(random() * keywords.length)]!,
    timestamp: new Date(
      start + (i % 7 === 0 ? Math.floor(random() * 72) * 3_600_000 : Math.floor(random() * 72 * 3_600_000)),
    ).toISOString(),
    resultCount: random() < 0.3 ? 0 : 1 + Math.floor(random() * 5),
  }));
}

function expectedTop(log: KeywordLogEntry[], since: string, zeroResultsOnly: boolean) {
  const counts = new Map<string, number>();
  for (const e of log) {
    if (e.timestamp >= since && (!zeroResultsOnly || e.resultCount === 0)) counts.set(e.keyword, (counts.get(e.keyword) ?? 0) + 1);
  }
  return [...counts]
    .map(([keyword, count]) => ({ keyword, count }))
    .sort((a, b) => b.count - a.count || (a.keyword < b.keyword ? -1 : 1))
    .slice(0, 3);
}

for (const dialect of DIALECTS) {
  describe(dialect, () => {
    test('totals, zero-result counts and top keywords equal counting the entries, wherever the window starts', async () => {
      const database = await openDatabase(await freshTarget(dialect), createLogger('silent'));
      after(() => database.close());
      const store = createKeywordLogStore(database, { clientSecret: 'test', suggestible: () => false });
      const log = entries();
      for (let i = 0; i < log.length; i += 150)
        await store.append(log.slice(i, i + 150).map((entry) => ({ ...entry, client: '192.0.2.1' })));

      const starts = [
        '2026-02-28T23:00:00.000Z',
        '2026-03-01T00:00:00.000Z',
        '2026-03-01T05:30:00.000Z',
        '2026-03-01T05:59:59.999Z',
        '2026-03-02T12:00:00.000Z',
        '2026-03-02T12:00:00.001Z',
        '2026-03-02T12:40:00.000Z',
        '2026-03-03T23:59:59.999Z',
        '2026-03-04T00:00:00.000Z',
      ];
      const figures = keywordFigures();
      const check = async (now: string) => {
        for (const since of starts) {
          const after = log.filter((e) => e.timestamp >= since);
          assert.equal(await countKeywordLogSince(database.db, since), after.length, `total since ${since}`);
          assert.equal(
            await figures.zeroResultSearchesSince(database.db, since, new Date(now)),
            after.filter((e) => e.resultCount === 0).length,
            `zero since ${since}, asked at ${now}`,
          );
          for (const zeroResultsOnly of [false, true]) {
            assert.deepEqual(
              await figures.topKeywordsSince(database.db, since, { limit: 3, zeroResultsOnly }, new Date(now)),
              expectedTop(log, since, zeroResultsOnly),
              `top ${zeroResultsOnly} since ${since}, asked at ${now}`,
            );
          }
        }
      };
      // Asked after everything (all hours settled), then while the third day was still being logged.
      await check('2026-03-10T00:00:00.000Z');
      const now = '2026-03-03T06:05:00.000Z';
      await check(now);
      // Logged after the settled part was kept: a few more of a common keyword, then a rare one
      // searched so much in the recent hours that it ranks, then one that goes to the top.
      for (const [keyword, times] of [
        ['delay', 5],
        ['rare7', 40],
        ['rare8', 400],
      ] as const) {
        const more = Array.from({ length: times }, (_, i) => ({
          keyword,
          timestamp: new Date(Date.parse('2026-03-03T05:56:00.000Z') + i * 1000).toISOString(),
          resultCount: i % 2,
        }));
        await store.append(more.map((entry) => ({ ...entry, client: '192.0.2.1' })));
        log.push(...more);
        await check(now);
      }
    });
  });
}
