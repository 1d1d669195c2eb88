import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { Tables } from '../db/schema.ts';

/** The tables whose records are archived the same way (archived = `archived_at` set). */
export type ArchivableTable = 'reservations' | 'subscriptions';

/**
 * Everything that differs between record kinds in archiving: their table, where their routes live,
 * their texts and what an archived record shows. A new kind is a new value of this, not new code.
 */
export interface ArchivableKind<T extends ArchivableTable = ArchivableTable> {
  table: T;
  /** Routes live at `<pathPrefix>/archive`, `/unarchive` and `/archives/list`. */
  pathPrefix: string;
  /** OpenAPI tag of the routes. */
  tag: string;
  /** The plural noun used in summaries and as the list's key in the archived-list answer: 'reservations'. */
  listKey: string;
  texts: {
    notFound: string;
    alreadyArchived: string;
    notArchived: string;
  };
  /** An archived record as the archived list shows it. */
  archivedItem(row: Selectable<Tables[T]>): Record<string, unknown>;
  /** Its schema, for the API reference. */
  archivedItemSchema: z.ZodType;
  /**
   * For kinds with records that must be unique among active ones (subscriptions: one pending per
   * address and product). Unarchiving such a record while an active one holds its key, or two
   * records of one key in the same request, is refused for that item with `conflict`.
   */
  uniqueWhileActive?: {
    /** For each of these ids whose record must be unique while active: its key, and whether an active record holds that key already. */
    find(db: Kysely<Tables>, ids: string[]): Promise<Map<string, { key: string; taken: boolean }>>;
    conflict: string;
  };
}
