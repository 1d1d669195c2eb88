import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import { sameTime } from '../db/same-time.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { insertPreorder, lockPreorders, updatePreorder, type Preorder, type PreorderSettings } from './store.ts';

/** An upsert: the product, and the settings given (absent ones keep their value, or are null on creation). */
export interface PreorderUpsert {
  productSlug: string;
  settings: Partial<PreorderSettings>;
  /** The campaign's `updatedAt` the change was made from (null: none then); absent, made whatever happened since. */
  expectedUpdatedAt?: string | null;
}

export type UpsertResult =
  { outcome: 'saved'; preorder: Preorder } | { outcome: 'unknownProduct' } | { outcome: 'closesBeforeOpens' } | { outcome: 'changed' };

const NO_SETTINGS: PreorderSettings = {
  opens_at: null,
  closes_at: null,
  capacity: null,
  per_customer_limit: null,
  ships_in: null,
  note: null,
};

/**
 * Creates a product's campaign or changes it. The dates are checked as they will be
 * stored, so changing one alone cannot put closesAt before an opensAt kept from before. The
 * campaign's row is locked while it changes, so a reservation sees either the old limits or the new,
 * and a colleague's save since the `expectedUpdatedAt` given is found (`changed`), never overwritten.
 */
export async function upsertPreorder(
  deps: { database: Database; catalog: Catalog },
  upsert: PreorderUpsert,
  now: Date = new Date(),
): Promise<UpsertResult> {
  if (!deps.catalog.bySlug.has(upsert.productSlug)) return { outcome: 'unknownProduct' };
  const attempt = () =>
    deps.database.db.transaction().execute(async (trx): Promise<UpsertResult> => {
      const [current] = await lockPreorders(trx, deps.database.dialect, [upsert.productSlug]);
      if (upsert.expectedUpdatedAt !== undefined && !sameTime(upsert.expectedUpdatedAt, current?.updated_at ?? null))
        return { outcome: 'changed' };
      const settings = { ...(current ?? NO_SETTINGS), ...upsert.settings };
      if (settings.opens_at !== null && settings.closes_at !== null && settings.closes_at <= settings.opens_at)
        return { outcome: 'closesBeforeOpens' };
      const at = now.toISOString();
      if (current) return { outcome: 'saved', preorder: await updatePreorder(trx, current.id, { ...upsert.settings, updated_at: at }) };
      const created = {
        ...NO_SETTINGS,
        ...upsert.settings,
        id: `pre_${uuidV7(now.getTime())}`,
        product_slug: upsert.productSlug,
        reserved: 0,
        created_at: at,
        updated_at: at,
      };
      return { outcome: 'saved', preorder: await insertPreorder(trx, created) };
    });
  // Two first upserts of one product at once: the loser finds the winner's campaign and updates it.
  return attempt().catch((error: unknown) => (isUniqueViolation(error) ? attempt() : Promise.reject(error)));
}
