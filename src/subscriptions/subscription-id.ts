import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `ntf_<epoch milliseconds>-<10 random [a-z0-9]>`. */
export function subscriptionId(now: number = Date.now()): string {
  let random = '';
  for (let i = 0; i < 10; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  return `ntf_${now}-${random}`;
}
