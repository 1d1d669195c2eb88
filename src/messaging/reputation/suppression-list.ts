import type { Database } from '../../db/database.ts';
import type { EmailSuppressionRow } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { DEFAULT_PAGE_SIZE, pageWindow, paging, type Paging } from '../../records/lists.ts';
import { keysOf } from './address-key.ts';
import { liftSuppression, listSuppressions, suppressionsOf, type SuppressionReason } from './store.ts';

// The suppressed addresses as staff see them, and lifting one: a hard bounce or soft bounces may be
// lifted (the customer says the mailbox works again), a complaint never: the customer said they do
// not want the shop's mail, and mailing them again is what gets a sender blocked.

export interface Suppression {
  address: string;
  erased: boolean;
  reason: SuppressionReason;
  since: string;
  retriedAt: string | null;
}

export const suppressionOf = (row: EmailSuppressionRow): Suppression => ({
  address: row.address,
  erased: row.address.startsWith('erased:'),
  reason: row.reason as SuppressionReason,
  since: row.since,
  retriedAt: row.retried_at,
});

/** One page of the suppressions in force, newest first; only one address's when it is given (a record's page asks so). */
export async function listSuppressed(
  database: Database,
  secret: string,
  request: { address?: string; reason?: SuppressionReason; page?: number; pageSize?: number },
): Promise<Paging & { suppressions: Suppression[] }> {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  if (request.address !== undefined) {
    const rows = (await suppressionsOf(database.db, keysOf(secret, request.address))).filter(
      (row) => row.lifted_at === null && (request.reason === undefined || row.reason === request.reason),
    );
    return { suppressions: rows.map(suppressionOf), ...paging(rows.length, 1, pageSize) };
  }
  const { rows, total } = await listSuppressions(database.db, request.reason, pageWindow(page, pageSize));
  return { suppressions: rows.map(suppressionOf), ...paging(total, page, pageSize) };
}

/** Lifts the suppression of an address (under its key, or its erased key); 404 when none is in force, 409 for a complaint. */
export async function liftSuppressed(
  database: Database,
  secret: string,
  request: { address: string; reason: string; by: string | null; at: string },
): Promise<Suppression> {
  return database.db.transaction().execute(async (trx) => {
    const rows = (await suppressionsOf(trx, keysOf(secret, request.address))).filter((row) => row.lifted_at === null);
    if (rows.length === 0) throw new AppError('suppression_not_found', 'Suppression not found');
    if (rows.some((row) => row.reason === 'complaint')) throw new AppError('complaint_not_liftable', 'A complaint cannot be lifted');
    for (const row of rows) await liftSuppression(trx, row.address, { at: request.at, by: request.by, reason: request.reason });
    return suppressionOf(rows[0]!);
  });
}
