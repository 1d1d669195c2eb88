import { domainToASCII } from 'node:url';

/**
 * The one address a customer's many spellings of theirs come to, which the per-customer limit of a
 * preorder campaign counts and a customer's request to see or erase their data looks up: trimmed,
 * NFC (a local part typed with combining marks is the one typed precomposed), the domain in its ASCII
 * (punycode) form as the forms store it (`例え.jp` is `xn--r8jz45g.jp`), lowercased; then the `+tag`
 * of the local part removed (`taro+shop@` is `taro@`), and at gmail.com and googlemail.com, which
 * are one mailbox provider that ignores dots, the dots of the local part removed and the domain
 * gmail.com. The address stored with a record stays as typed.
 *
 * The second step is also written in SQL (src/db/address.ts), where the indexes of the look-ups
 * compute it from stored addresses; both split at the first `@` and keep a local part that starts
 * with `+` whole, so the two agree on every address.
 */
export function canonicalAddress(address: string): string {
  const text = address.trim().normalize('NFC');
  const last = text.lastIndexOf('@');
  if (last < 0) return text.toLowerCase();
  const domain = text.slice(last + 1);
  const lowered = `${text.slice(0, last)}@${domainToASCII(domain) || domain}`.toLowerCase();
  return withoutAliases(lowered);
}

const GMAIL = new Set(['gmail.com', 'googlemail.com']);

function withoutAliases(address: string): string {
  const at = address.indexOf('@');
  if (at < 0) return address;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  const untagged = plus > 0 ? local.slice(0, plus) : local;
  return GMAIL.has(domain) ? `${untagged.replaceAll('.', '')}@gmail.com` : `${untagged}@${domain}`;
}
