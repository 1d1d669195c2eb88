import { domainToASCII } from 'node:url';

/**
 * The one address a customer's spellings of theirs come to (a campaign's per-customer limit counts
 * it; a data request looks it up): trimmed, NFC, the domain in ASCII (`例え.jp` is `xn--r8jz45g.jp`),
 * lowercased; then the local part's `+tag` removed, and at gmail.com and googlemail.com (one mailbox
 * that ignores dots) its dots too, the domain gmail.com. A record keeps the address as typed. The
 * second step is also SQL (src/db/address.ts, for the look-ups' indexes): both split at the first
 * `@` and keep a local part starting with `+` whole, so the two agree on every address.
 */ export function canonicalAddress(address: string): string {
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
