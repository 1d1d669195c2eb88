import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { ErrorCode } from '../http/error-codes.ts';
import { byStaff, recordArchiving } from './history.ts';
import { isStorable } from '../text/storable-text.ts';
import type { RecordRefusals, RecordTable, Refusal } from './record-rows.ts';
import { findArchiveStates, setArchivedAt, uniqueKeys, type ArchiveState, type UniqueWhileActive } from './store.ts';

export type BulkAction = 'archive' | 'unarchive';

/** Which records a bulk request names, and what its items are told. */
export interface ArchiveTarget {
  table: RecordTable;
  refusals: RecordRefusals;
  /** Kinds whose active records must be unique (see UniqueWhileActive): an unarchive that would break the rule is refused for that item with this. */
  unique?: UniqueWhileActive & { refusal: Refusal };
}

/** The most items one request may name. */
export const MAX_BULK_ITEMS = 500;

export interface BulkOutcome {
  /** Ids changed, in the order they were given. */
  doneIds: string[];
  /** Items left as they were, and why. `id` is '' when the item gave none. */
  errors: BulkItemError[];
}

/** An item of a bulk request left as it was: its id ('' when it gave none), why, and the code of why. */
export interface BulkItemError {
  id: string;
  error: string;
  code: ErrorCode;
}

const INVALID_ITEM = 'Invalid item';

/** Attempts of a batch whose unique key another request took meanwhile (see bulkSetArchived). */
const ATTEMPTS = 3;

/**
 * Archives or unarchives each `{id, productSlug}` item on its own terms: items that cannot change
 * (malformed, not found, already so) are reported, the others changed with a history line naming
 * the staff account (`staffId`; null for the bearer token); naming a record twice changes it once.
 * One transaction, whole or not at all. A pending subscription restored may meet a signup that took
 * its unique key since the check: the store refuses the batch, nothing was applied, and the batch runs
 * again, the check now reporting that item.
 */ export async function bulkSetArchived(
  database: Database,
  target: ArchiveTarget,
  action: BulkAction,
  items: unknown[],
  now: string,
  staffId: string | null,
): Promise<BulkOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyBatch(database, target, action, items, now, staffId);
    } catch (error) {
      if (attempt === ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}

async function applyBatch(
  database: Database,
  target: ArchiveTarget,
  action: BulkAction,
  items: unknown[],
  now: string,
  staffId: string | null,
): Promise<BulkOutcome> {
  const wellFormed = items.map(asItem);
  const ids = [...new Set(wellFormed.flatMap((item) => (item ? [item.id] : [])))];
  return database.db.transaction().execute(async (trx) => {
    const states = new Map<string, ArchiveState>();
    for (const state of await findArchiveStates(trx, database.dialect, target.table, ids)) states.set(state.id, state);
    const { unique: rule, refusals } = target;
    const unique =
      action === 'unarchive' && rule ? await uniqueKeys(trx, target.table, ids, rule) : new Map<string, { key: string; taken: boolean }>();
    const keysTaken = new Set<string>();
    const outcome: BulkOutcome = { doneIds: [], errors: [] };
    wellFormed.forEach((item, index) => {
      if (!item) {
        outcome.errors.push({ id: idOf(items[index]), error: INVALID_ITEM, code: 'invalid_item' });
        return;
      }
      const state = states.get(item.id);
      if (!state || state.productSlug !== item.productSlug) {
        outcome.errors.push({ id: item.id, ...refusals.notFound });
        return;
      }
      const archived = state.archivedAt !== null;
      if (action === 'archive' && archived) return void outcome.errors.push({ id: item.id, ...refusals.alreadyArchived });
      if (action === 'unarchive' && !archived) return void outcome.errors.push({ id: item.id, ...refusals.notArchived });
      const key = unique.get(item.id);
      if (key) {
        if (key.taken || keysTaken.has(key.key)) return void outcome.errors.push({ id: item.id, ...rule!.refusal });
        keysTaken.add(key.key);
      }
      state.archivedAt = action === 'archive' ? now : null;
      outcome.doneIds.push(item.id);
    });
    await setArchivedAt(trx, target.table, outcome.doneIds, action === 'archive' ? now : null, now);
    await recordArchiving(trx, outcome.doneIds, action, now, byStaff(staffId));
    return outcome;
  });
}

/** `{id, productSlug}`, both non-empty strings that can be looked up (see isStorable), or undefined. */
export function asItem(item: unknown): { id: string; productSlug: string } | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const { id, productSlug } = item as Record<string, unknown>;
  const lookable = (value: unknown): value is string => typeof value === 'string' && value !== '' && isStorable(value);
  return lookable(id) && lookable(productSlug) ? { id, productSlug } : undefined;
}

/** The id an item gives, or '' (an item that is not what the list takes is reported under it). */
export function idOf(item: unknown): string {
  const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).id : undefined;
  return typeof id === 'string' ? id : '';
}
