/**
 * A provider's answer that says more than "failed": that retrying cannot help (`permanent`: a bad
 * key, a rejected address), that the recipient's server refused the address for good
 * (`hardBounce`: a 5xx to SMTP's RCPT, which suppresses the address as a provider's bounce would),
 * or when to come back (`retryAfterMs`, from `Retry-After`). Any other error thrown by a delivery is
 * a failure to retry with the usual backoff.
 */
export class DeliveryFailure extends Error {
  readonly permanent: boolean;
  readonly hardBounce: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { permanent?: boolean; hardBounce?: boolean; retryAfterMs?: number } = {}) {
    super(message);
    this.name = 'DeliveryFailure';
    this.hardBounce = options.hardBounce ?? false;
    this.permanent = this.hardBounce || (options.permanent ?? false);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * An HTTP answer that no retry can turn into a success: a 4xx other than 408 (timeout), 409
 * (conflict, e.g. the same idempotency key still in flight) and 429 (too many requests).
 */
export function isPermanentHttpStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429;
}

/** An SMTP reply that no retry can turn into a success: a 5xx (RFC 5321 §4.2.1: permanent negative completion). */
export function isPermanentSmtpCode(code: number): boolean {
  return code >= 500 && code < 600;
}

/** The longest wait a `Retry-After` is followed for; a longer one waits this long. */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

/**
 * The wait a `Retry-After` value asks for (RFC 9110 §10.2.3: delay-seconds or an HTTP date), in ms
 * from `now`, bounded to 0…MAX_RETRY_AFTER_MS; undefined when absent or not understood.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const wait = /^\d+$/.test(text) ? Number(text) * 1_000 : /[a-z]/i.test(text) ? Date.parse(text) - now : NaN;
  return Number.isNaN(wait) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, wait));
}
