import { z } from 'zod';
import { expectedUpdatedAt } from '../http/schemas.ts';
import { isEmailAddress } from '../records/form-fields.ts';
import { isStorable } from '../text/storable-text.ts';
import { codePointLength } from '../text/code-points.ts';

// What the shop settings routes take and answer. Each text is trimmed; an address keeps its line
// breaks (each line trimmed, blank ones dropped), every other field is one line.

const LINE_BREAK = /[\r\n\u2028\u2029]/;

const OneLine = (field: string, max: number) => {
  const message = `${field} must be one line of at most ${max} characters`;
  return z
    .string({ error: message })
    .transform((text) => text.trim())
    .refine((text) => codePointLength(text) <= max && !LINE_BREAK.test(text) && isStorable(text), message);
};

const ADDRESS_MESSAGE = 'address must be at most 300 characters';
const PHONE_MESSAGE = 'phone must be at most 30 characters of digits, spaces and + - ( )';
const EMAIL_MESSAGE = "contactEmail must be a valid email address or ''";

export const ShopSchema = z
  .object({
    name: z.string().describe("The shop's name; '' when unset"),
    contactEmail: z.string().describe("Where customers write to; '' when unset"),
    phone: z.string().describe("'' when unset"),
    address: z.string().describe("Its address, lines separated by \\n; '' when unset"),
    hours: z.string().describe("Business hours; '' when unset"),
    updatedAt: z.string().nullable().describe('The last save; null until the first'),
  })
  .meta({ id: 'Shop' });

export const GetBody = z.object({});
export const ShopResponse = z.object({ success: z.literal(true), shop: ShopSchema });

export const UpdateBody = z.object({
  name: OneLine('name', 100).optional(),
  contactEmail: z
    .string({ error: EMAIL_MESSAGE })
    .transform((email) => email.trim())
    .refine((email) => email === '' || isEmailAddress(email), EMAIL_MESSAGE)
    .optional(),
  phone: z
    .string({ error: PHONE_MESSAGE })
    .transform((phone) => phone.trim())
    .refine((phone) => phone.length <= 30 && /^[0-9 +\-()]*$/.test(phone), PHONE_MESSAGE)
    .optional(),
  address: z
    .string({ error: ADDRESS_MESSAGE })
    .transform((address) =>
      address
        .split(/\r\n?|\n|\u2028|\u2029/)
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join('\n'),
    )
    .refine((address) => codePointLength(address) <= 300 && isStorable(address), ADDRESS_MESSAGE)
    .optional()
    .describe('Line breaks allowed (each line trimmed, blank lines dropped); at most 300 characters'),
  hours: OneLine('hours', 200).optional(),
  expectedUpdatedAt: expectedUpdatedAt(
    'The updatedAt last seen (null: never saved); when the settings were saved since, 409 and nothing is written',
  ),
});
