import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';

/**
 * The counts behind keyword suggestions (migration 013): which clients searched a keyword that may
 * be suggested, with results, and when last; per keyword, how many clients and searches. A keyword
 * is offered once at least MIN_CLIENTS different clients searched it within the window, so one
 * visitor's search (or flood) never becomes every shopper's suggestion. Clients are kept as a keyed
 * hash of their address, never the address.
 */
export const MIN_CLIENTS = 3;

/** One search that may count towards a suggestion: its keyword (suggestible, found something), its client hashed. */
export interface SuggestionSearch {
  keyword: string;
  client: string;
  timestamp: string;
}

/** The keyed hash a client is kept as: HMAC-SHA256 of its address, 128 bits in hex. */
export function clientHash(secret: string): (address: string) => string {
  return (address) => createHmac('sha256', secret).update(address).digest('hex').slice(0, 32);
}

/**
 * Counts the searches in the caller's transaction: each (keyword, client) pair is kept with its
 * latest time, and a keyword's count of clients grows by the pairs seen for the first time.
 */
export async function countSuggestionSearches(trx: Kysely<Tables>, searches: SuggestionSearch[]): Promise<void> {
  if (searches.length === 0) return;
  const pairs = new Map<string, SuggestionSearch>();
  const perKeyword = new Map<string, { searches: number; last: string }>();
  for (const search of searches) {
    const key = `${search.keyword}\u0000${search.client}`;
    const seen = pairs.get(key);
    if (!seen || seen.timestamp < search.timestamp) pairs.set(key, search);
    const counts = perKeyword.get(search.keyword) ?? { searches: 0, last: search.timestamp };
    counts.searches += 1;
    if (counts.last < search.timestamp) counts.last = search.timestamp;
    perKeyword.set(search.keyword, counts);
  }
  const known = await trx
    .selectFrom('keyword_clients')
    .select(['keyword', 'client'])
    .where('keyword', 'in', [...perKeyword.keys()])
    .where('client', 'in', [...new Set(searches.map((search) => search.client))])
    .execute();
  const old = new Set(known.map((row) => `${row.keyword}\u0000${row.client}`));
  const newClients = new Map<string, number>();
  for (const [key, { keyword }] of pairs) if (!old.has(key)) newClients.set(keyword, (newClients.get(keyword) ?? 0) + 1);

  await trx
    .insertInto('keyword_clients')
    .values([...pairs.values()].map(({ keyword, client, timestamp }) => ({ keyword, client, last_searched_at: timestamp })))
    .onConflict((conflict) =>
      conflict.columns(['keyword', 'client']).doUpdateSet((eb) => ({ last_searched_at: eb.ref('excluded.last_searched_at') })),
    )
    .execute();
  await trx
    .insertInto('keyword_suggestions')
    .values(
      [...perKeyword].map(([keyword, { searches: count, last }]) => ({
        keyword,
        clients: newClients.get(keyword) ?? 0,
        searches: count,
        last_searched_at: last,
      })),
    )
    .onConflict((conflict) =>
      conflict.column('keyword').doUpdateSet((eb) => ({
        clients: eb('keyword_suggestions.clients', '+', eb.ref('excluded.clients')),
        searches: eb('keyword_suggestions.searches', '+', eb.ref('excluded.searches')),
        last_searched_at: eb.ref('excluded.last_searched_at'),
      })),
    )
    .execute();
}

/** The keywords to offer: searched with results by MIN_CLIENTS clients or more, the last of them since `since`; most searched first. */
export async function suggestedKeywords(db: Kysely<Tables>, since: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('keyword_suggestions')
    .select('keyword')
    .where('clients', '>=', MIN_CLIENTS)
    .where('last_searched_at', '>=', since)
    .orderBy('searches', 'desc')
    .orderBy('keyword')
    .limit(limit)
    .execute();
  return rows.map((row) => row.keyword);
}

/**
 * Forgets up to `limit` clients whose latest search of a keyword is older than `before`, and takes
 * them off their keywords' counts (a keyword no client is left of goes too). Resolves with how many.
 */
export async function forgetSuggestionClients(db: Kysely<Tables>, before: string, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const expired = await trx
      .selectFrom('keyword_clients')
      .select(['keyword', 'client'])
      .where('last_searched_at', '<', before)
      .orderBy('last_searched_at')
      .limit(limit)
      .execute();
    if (expired.length === 0) return 0;
    const perKeyword = Map.groupBy(expired, (row) => row.keyword);
    for (const [keyword, rows] of perKeyword) {
      const deleted = await trx
        .deleteFrom('keyword_clients')
        .where('keyword', '=', keyword)
        .where(
          'client',
          'in',
          rows.map((row) => row.client),
        )
        .where('last_searched_at', '<', before)
        .executeTakeFirst();
      await trx
        .updateTable('keyword_suggestions')
        .set((eb) => ({ clients: eb('clients', '-', Number(deleted.numDeletedRows)) }))
        .where('keyword', '=', keyword)
        .execute();
    }
    await trx
      .deleteFrom('keyword_suggestions')
      .where('keyword', 'in', [...perKeyword.keys()])
      .where('clients', '<=', 0)
      .execute();
    return expired.length;
  });
}
