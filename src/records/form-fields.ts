import { z } from 'zod';
import { SLUG_PATTERN } from '../catalog/product.ts';
import { JA } from '../http/storefront-texts.ts';
import { codePointLength } from '../text/code-points.ts';

// The fields the public forms share (reservation, restock signup), with their limits and Japanese messages.

/** The public forms' rule for an address (trimmed first): at most 254 characters, and valid. */
export function isEmailAddress(email: string): boolean {
  return codePointLength(email) <= 254 && z.regexes.email.test(email);
}

/** Trimmed, at most 254 characters, a valid address; stored lowercased, so duplicates are found case-insensitively. */
export const EmailField = z
  .string({ error: JA.emailInvalid })
  .transform((email) => email.trim())
  .refine(isEmailAddress, JA.emailInvalid)
  .transform((email) => email.toLowerCase())
  .describe('A valid address, at most 254 characters; stored lowercased');

/** A catalog slug, at most 100 characters; whether the product exists is checked against the catalog afterwards. */
export const ProductSlugField = z
  .string({ error: JA.productSlugInvalid })
  .refine((slug) => slug.length <= 100 && SLUG_PATTERN.test(slug), JA.productSlugInvalid)
  .describe('A product of the catalog');
