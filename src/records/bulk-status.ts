import { z } from 'zod';
import { asItem, idOf, MAX_BULK_ITEMS, type BulkItemError } from './bulk-archive.ts';
import type { RecordRefusals } from './record-rows.ts';
import { statusChangeError, type StatusChangeResult } from './status-checks.ts';

// A bulk status move: many records moved to one status in one request, each exactly as its own
// status request would move it (its checks, its transaction, its email and history), so a shop
// moving 2,000 reservations sends a few requests instead of 2,000.

/** One record of a bulk move: which, and the updatedAt it was shown with. */
export interface BulkStatusItem {
  id: string;
  productSlug: string;
  expectedUpdatedAt?: string;
}

export const BulkStatusItems = z
  .array(z.unknown(), { error: 'items must be an array' })
  .min(1, 'items array cannot be empty')
  .max(MAX_BULK_ITEMS, `items array cannot exceed ${MAX_BULK_ITEMS} items`)
  .describe(`The records, as {id, productSlug, expectedUpdatedAt?}, at most ${MAX_BULK_ITEMS}; each is moved on its own`);

export interface BulkStatusOutcome<R> {
  /** The records moved (or already on the status), as they now are, in the order given. */
  updated: R[];
  /** Items left as they were, and why (what the record's own status request would have answered). */
  errors: BulkItemError[];
}

/**
 * Moves each item with `change` (the kind's own status change, in its own transaction), one after
 * another, so an item refused (changed by someone else, a move the table does not allow, a full
 * campaign) leaves the others moved. A malformed item is `invalid_item`; one named twice is moved once.
 */
export async function bulkChangeStatus<R>(
  items: unknown[],
  refusals: RecordRefusals,
  change: (item: BulkStatusItem) => Promise<StatusChangeResult<R>>,
): Promise<BulkStatusOutcome<R>> {
  const outcome: BulkStatusOutcome<R> = { updated: [], errors: [] };
  const seen = new Set<string>();
  for (const raw of items) {
    const item = asStatusItem(raw);
    if (!item) {
      outcome.errors.push({ id: idOf(raw), error: 'Invalid item', code: 'invalid_item' });
      continue;
    }
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    const result = await change(item);
    if (result.outcome === 'updated') outcome.updated.push(result.record);
    else {
      const refused = statusChangeError(result, refusals);
      outcome.errors.push({ id: item.id, error: refused.message, code: refused.code });
    }
  }
  return outcome;
}

/** `{id, productSlug, expectedUpdatedAt?}` as a status request names them, or undefined. */
function asStatusItem(raw: unknown): BulkStatusItem | undefined {
  const item = asItem(raw);
  const { expectedUpdatedAt } = raw as Record<string, unknown>;
  if (!item || expectedUpdatedAt === undefined) return item;
  const iso = typeof expectedUpdatedAt === 'string' && z.iso.datetime({ offset: true }).safeParse(expectedUpdatedAt).success;
  return iso ? { ...item, expectedUpdatedAt } : undefined;
}
