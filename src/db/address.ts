import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * A stored address's canonical form in SQL (src/text/canonical-address.ts says the rule: the +tag
 * removed, gmail's dots and its second domain folded), over `lower(column)`: stored addresses are
 * already trimmed and their domain ASCII, and they are ASCII (the forms refuse others), where
 * SQLite's and PostgreSQL's lower() agree. It is the expression of the indexes on every table
 * holding addresses (migration 018 creates them and, on PostgreSQL, the `instr` both databases then
 * read it with), written here word for word as they were, so the planner matches them; a test holds
 * it equal to the JavaScript rule.
 */
export function canonicalAddressSql(column: 'email' | 'destination'): RawBuilder<string> {
  const address = `lower(${column})`;
  const at = `instr(${address}, '@')`;
  const local = `substr(${address}, 1, ${at} - 1)`;
  const domain = `substr(${address}, ${at} + 1)`;
  const plus = `instr(${local}, '+')`;
  const untagged = `(case when ${plus} > 1 then substr(${local}, 1, ${plus} - 1) else ${local} end)`;
  return sql.raw(
    `(case when ${at} = 0 then ${address} when ${domain} in ('gmail.com', 'googlemail.com') then replace(${untagged}, '.', '') || '@gmail.com' else ${untagged} || '@' || ${domain} end)`,
  );
}

/** A stored address whose canonical form is `key` (already canonical: canonicalAddress). */
export const atAddress = (column: 'email' | 'destination', key: string) => sql<SqlBool>`${canonicalAddressSql(column)} = ${key}`;
