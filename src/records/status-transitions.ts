/**
 * A record kind's statuses and the moves an administrator may make between them, as data: each
 * kind (reservations, subscriptions) supplies its own table and this one check serves both.
 */
export interface StatusTable<S extends string> {
  statuses: readonly S[];
  /** Allowed [from, to] moves. Staying on the same status is always allowed (an edit of other fields). */
  moves: readonly (readonly [S, S])[];
}

/** Whether a record now in `from` (possibly a legacy status outside the table) may move to `to`. */
export function allowsMove<S extends string>(table: StatusTable<S>, from: string, to: S): boolean {
  return from === to || table.moves.some(([a, b]) => a === from && b === to);
}
