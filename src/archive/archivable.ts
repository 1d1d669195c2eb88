import type { Selectable } from 'kysely';
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
}
