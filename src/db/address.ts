import { sql, type SqlBool } from 'kysely';

/**
 * `lower(column) = key`: a stored address equal to `key` but for case, the expression migration
 * 012 indexes on every table holding addresses. `key` is already lowercased (src/personal-data/address.ts).
 */
export const atAddress = (column: 'email' | 'destination', key: string) => sql<SqlBool>`lower(${sql.ref(column)}) = ${key}`;
