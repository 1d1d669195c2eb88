import type { Context } from 'hono';
import type { Transaction, Work } from '../db/group-commit.ts';
import { claimOf, IDEMPOTENCY_KEY_REUSED, keyedTransaction, KeyReused, type KeyedAnswers } from '../idempotency/keyed-transaction.ts';
import type { IdempotencyKey } from '../idempotency/store.ts';
import type { AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import { requestHeaderLines } from './request.ts';

export const INVALID_IDEMPOTENCY_KEY = 'Idempotency-Key must be 1 to 255 visible ASCII characters';

/** 1-255 characters from `!` to `~` (no space, no control character, nothing past ASCII). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Reads the `Idempotency-Key` of a route that takes one (its `idempotent` flag; mount.ts calls
 * this before the body is read) and keeps it, with its client, for `idempotencyKeyOf`. A key sent
 * twice is refused like a malformed one: which of the two was meant cannot be known.
 */
export function readIdempotencyKey(c: Context<AppEnv>, clientAddress: (c: Context) => string): void {
  const lines = requestHeaderLines(c, 'idempotency-key');
  if (lines.length === 0) return;
  if (lines.length > 1 || !VALID_KEY.test(lines[0]!)) throw new AppError('invalid_idempotency_key', INVALID_IDEMPOTENCY_KEY);
  c.set('idempotencyKey', { client: clientAddress(c), key: lines[0]! });
}

/** The request's key and client, when it carried a valid key (readIdempotencyKey). */
export function idempotencyKeyOf(c: Context<AppEnv>): IdempotencyKey | undefined {
  return c.get('idempotencyKey');
}

/** What an idempotent route's write needs: the secret its keys' fingerprints are keyed with, and the time that dates them. */
export interface IdempotencySettings {
  idempotencySecret: string;
  now: () => Date;
}

/**
 * The transaction an idempotent route's use case runs its write in: `transaction`, made to happen once
 * per Idempotency-Key (idempotency/keyed-transaction.ts) when the request carries one. `request` names
 * the form and its validated fields, which the key's fingerprint stands for; a key first sent with
 * another request is the route's 422.
 */
export function idempotentTransaction<R>(
  c: Context<AppEnv>,
  settings: IdempotencySettings,
  request: { form: string; fields: readonly string[] },
  answers: KeyedAnswers<R>,
  transaction: Transaction,
): (work: Work<R>) => Promise<R> {
  const key = idempotencyKeyOf(c);
  const claim = key && claimOf(settings.idempotencySecret, key, request.form, request.fields);
  const keyed = keyedTransaction<R>(transaction, claim, answers, settings.now);
  return (work) =>
    keyed(work).catch((error: unknown) => {
      throw error instanceof KeyReused ? new AppError('idempotency_key_reused', IDEMPOTENCY_KEY_REUSED) : error;
    });
}
