import { createHmac } from 'node:crypto';
import { canonicalAddress } from '../../text/canonical-address.ts';

// A suppression is kept under its address's key: the canonical address (one customer, one key, so
// `taro+shop@` bounced suppresses `taro@`), or once its customer is erased, a keyed hash of it,
// which names no one and still matches the address if it is ever mailed again.

/** The key an address is suppressed under while its customer is known. */
export const addressKey = (address: string): string => canonicalAddress(address);

/** The key it is kept under once its customer is erased: `erased:` and an HMAC-SHA256 of the canonical address (128 bits). */
export function erasedKey(secret: string, address: string): string {
  return `erased:${createHmac('sha256', secret).update(canonicalAddress(address)).digest('hex').slice(0, 32)}`;
}

/** Both keys an address may be suppressed under. */
export const keysOf = (secret: string, address: string): [string, string] => [addressKey(address), erasedKey(secret, address)];
