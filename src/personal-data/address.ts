import { domainToASCII } from 'node:url';

/**
 * The form an address is looked up in: what `lower(email)` of a stored address equals when the two
 * name the same mailbox (addresses match case-insensitively). NFC, so a local part typed
 * with combining marks matches one typed precomposed; the domain in its ASCII (punycode) form, as
 * the forms store it, so `例え.jp` finds `xn--r8jz45g.jp`; then lowercased. The local part is folded
 * for all of Unicode, but stored addresses are ASCII (the forms refuse others), so a non-ASCII local
 * part finds nothing rather than something SQL's lower() folded differently.
 */
export function addressKey(address: string): string {
  const text = address.trim().normalize('NFC');
  const at = text.lastIndexOf('@');
  const domain = text.slice(at + 1);
  return `${text.slice(0, at)}@${domainToASCII(domain) || domain}`.toLowerCase();
}
