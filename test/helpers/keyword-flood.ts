import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

// A keyword log flooded with searches, as a script pasting random text into the search box would
// leave it: nine in ten keywords new (`flood<n>`), the rest the words shoppers type, spread evenly
// over the days before a time. The log and what the service keeps beside it (searches per hour; per
// keyword and hour, at most the first 200 keywords of each hour) are written behind the service's
// back, in one statement each, on a store the service has migrated.

/** The words of the searches that are not new. */
export const FLOOD_WORDS = ['シンセ', 'VCO', 'フィルター', 'LFO', 'ケース', 'リバーブ', 'クロック', 'MIDI', 'VCA', 'ウェーブフォルダー'];
/** What the service keeps per keyword and hour (src/keyword-log/store.ts KEYWORDS_PER_HOUR). */
const KEYWORDS_PER_HOUR = 200;

export interface FloodedStore {
  /** `entries` searches in the `days` days before `now`, and the counts kept beside them. */
  flood(entries: number, days: number, now: number): Promise<void>;
  close(): Promise<void>;
}

/** The store at `url` (`sqlite:<path>` or `postgres://…`), to flood. */
export async function floodableStore(url: string): Promise<FloodedStore> {
  return url.startsWith('sqlite:') ? sqliteStore(url.slice('sqlite:'.length)) : postgresStore(url);
}

function sqliteStore(path: string): FloodedStore {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 10000');
  return {
    flood: async (entries, days, now) => {
      const start = now - days * 86_400_000;
      const step = (days * 86_400_000) / entries;
      db.exec('begin');
      db.exec(`with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${entries})
        insert into keyword_logs (keyword, timestamp, result_count)
        select case when i % 10 = 0 then ${wordOf('i', 'sqlite')} else 'flood' || (i % 500000) end,
          strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + i * ${step}) / 1000.0, 'unixepoch'),
          case when i % 10 = 0 then 3 else 0 end
        from n`);
      db.exec(aggregates);
      db.exec('commit');
    },
    close: async () => db.close(),
  };
}

async function postgresStore(url: string): Promise<FloodedStore> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    flood: async (entries, days, now) => {
      const start = now - days * 86_400_000;
      const step = (days * 86_400_000) / entries;
      await client.query('begin');
      await client.query(`insert into keyword_logs (keyword, timestamp, result_count)
        select case when i % 10 = 0 then ${wordOf('i', 'postgres')} else 'flood' || (i % 500000) end,
          to_char(to_timestamp((${start} + i::bigint * ${step}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          case when i % 10 = 0 then 3 else 0 end
        from generate_series(0, ${entries - 1}) as i`);
      await client.query(aggregates);
      await client.query('commit');
      await client.query('analyze');
    },
    close: () => client.end(),
  };
}

/** One of WORDS by `i`, in SQL. */
function wordOf(i: string, dialect: 'sqlite' | 'postgres'): string {
  const cases = FLOOD_WORDS.map((word, n) => `when ${n} then '${word}'`).join(' ');
  return `(case ${dialect === 'sqlite' ? `(${i} / 10) % ${FLOOD_WORDS.length}` : `((${i} / 10) % ${FLOOD_WORDS.length})::int`} ${cases} end)`;
}

/** The counts the service keeps beside the log, as its writes would have left them (the same SQL on both). */
const aggregates = `
  insert into keyword_log_hours (hour, entries)
    select substr(timestamp, 1, 13), count(*) from keyword_logs group by substr(timestamp, 1, 13);
  insert into keyword_hours (hour, keyword, searches, zero_result_searches)
    select hour, keyword, searches, zero from (
      select substr(timestamp, 1, 13) as hour, keyword, count(*) as searches,
        sum(case when result_count = 0 then 1 else 0 end) as zero,
        row_number() over (partition by substr(timestamp, 1, 13) order by min(timestamp)) as rank
      from keyword_logs group by substr(timestamp, 1, 13), keyword
    ) as counted where rank <= ${KEYWORDS_PER_HOUR};`;
