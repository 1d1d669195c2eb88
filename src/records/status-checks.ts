import { AppError } from '../http/app-error.ts';
import type { AnswerCode } from '../http/error-codes.ts';
import type { RecordColumns, RecordRefusals, Refusal } from './record-rows.ts';
import { allowsMove, type StatusTable } from './status-transitions.ts';

// The checks every status request of a record passes, whatever its kind, and how a refused one is
// answered. A kind's own status change (reservations/change-status.ts, subscriptions/change-status.ts)
// locks the record, runs these checks, then writes the move its own way.

/** What every status request names. */
export interface StatusRequest {
  id: string;
  productSlug: string;
  status: string;
  /** The record's `updatedAt` as the requester last saw it: when it has changed since, nothing is written. */
  expectedUpdatedAt?: string;
}

/** The ways a status change can be refused. */
export type StatusChangeRefused =
  | { outcome: 'notFound' }
  | { outcome: 'archived' }
  /** The record changed after the `expectedUpdatedAt` the request named. */
  | { outcome: 'changed' }
  | { outcome: 'invalidTransition'; from: string; to: string }
  /** A refusal of the kind's own (a campaign with no seat left, a second pending subscription). */
  | ({ outcome: 'conflict' } & Refusal<AnswerCode>);

export type StatusChangeResult<R> = { outcome: 'updated'; record: R } | StatusChangeRefused;

/**
 * Why a status request cannot be applied to the record as it stands (read under a lock), or
 * undefined: the record must have that product (another is as good as none), not have changed since
 * `expectedUpdatedAt`, be active, and the move must be in the kind's table (or stay on the same status).
 */
export function refusedStatusChange(
  current: RecordColumns,
  request: StatusRequest,
  table: StatusTable<string>,
): StatusChangeRefused | undefined {
  if (current.product_slug !== request.productSlug) return NOT_FOUND;
  if (request.expectedUpdatedAt !== undefined && Date.parse(request.expectedUpdatedAt) !== Date.parse(current.updated_at))
    return { outcome: 'changed' };
  if (current.archived_at !== null) return { outcome: 'archived' };
  if (!allowsMove(table, current.status, request.status)) return invalidTransition(current.status, request.status);
  return undefined;
}

export const NOT_FOUND: StatusChangeRefused = { outcome: 'notFound' };

export const invalidTransition = (from: string, to: string): StatusChangeRefused => ({ outcome: 'invalidTransition', from, to });

/**
 * The time a change is recorded at: now, or a millisecond after the record's last change when the
 * clock has not moved past it (two changes in one millisecond, a clock stepped back), so that every
 * change gives the record a new `updatedAt` and a screen that saw the old one is always stale.
 */
export function changeTime(lastChange: string, now: Date): Date {
  const last = Date.parse(lastChange);
  return now.getTime() > last ? now : new Date(last + 1);
}

/** The answer to a refused status change: 404 for a record not found, 409 otherwise. */
export function statusChangeError(refused: StatusChangeRefused, refusals: RecordRefusals): AppError {
  switch (refused.outcome) {
    case 'notFound':
      return refusalError(refusals.notFound);
    case 'changed':
      return refusalError(refusals.changed);
    case 'archived':
      return refusalError(refusals.archived);
    case 'invalidTransition':
      return new AppError('invalid_status_transition', `Invalid status transition: ${refused.from} -> ${refused.to}`);
    case 'conflict':
      return refusalError(refused);
  }
}

/** Every code statusChangeError can answer for a kind, given the codes of its own conflicts. */
export function statusChangeCodes(refusals: RecordRefusals, conflicts: readonly AnswerCode[]): AnswerCode[] {
  return [refusals.notFound.code, refusals.changed.code, refusals.archived.code, 'invalid_status_transition', ...conflicts];
}

export const refusalError = (refusal: Refusal<AnswerCode>) => new AppError(refusal.code, refusal.error);
