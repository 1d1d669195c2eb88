/**
 * Whether a store error is a unique-index violation, on either dialect: a partial unique index
 * (`subscriptions_one_pending`) can refuse a write another transaction made possible after our check.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // PostgreSQL: SQLSTATE 23505. node:sqlite: SQLITE_CONSTRAINT_UNIQUE (2067) or _PRIMARYKEY (1555).
  return code === '23505' || errcode === 2067 || errcode === 1555;
}
