import { z } from 'zod';
import { expectedUpdatedAt } from '../http/schemas.ts';
import { isStorable } from '../text/storable-text.ts';
import { codePointLength } from '../text/code-points.ts';
import { parseIso8601 } from '../text/iso-8601.ts';

// What the preorder endpoints take and answer with.

export const PreorderStateSchema = z
  .enum(['upcoming', 'closed', 'soldOut', 'open'])
  .describe('Checked in this order: upcoming before opensAt, closed after closesAt, soldOut when remaining is 0, else open')
  .meta({ id: 'PreorderState' });

const When = (field: string) =>
  z
    .string({ error: `${field} must be an ISO 8601 date-time or null` })
    .transform((value, context) => {
      const time = parseIso8601(value);
      if (time !== undefined) return new Date(time).toISOString();
      context.addIssue({ code: 'custom', message: `${field} must be an ISO 8601 date-time or null` });
      return z.NEVER;
    })
    .nullable()
    .optional()
    .describe(
      'ISO 8601 (an offset such as +09:00 is kept as the same instant; none means UTC); stored and answered in UTC; null for no bound',
    );

const Count = (field: string, max: number) =>
  z
    .number({ error: `${field} must be an integer from 1 to ${max} or null` })
    .int(`${field} must be an integer from 1 to ${max} or null`)
    .min(1, `${field} must be an integer from 1 to ${max} or null`)
    .max(max, `${field} must be an integer from 1 to ${max} or null`)
    .nullable()
    .optional();

const Text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string of at most ${max} characters or null` })
    .refine((text) => codePointLength(text) <= max && isStorable(text), `${field} must be a string of at most ${max} characters or null`)
    .nullable()
    .optional();

const ProductSlug = z
  .string({ error: 'productSlug is required' })
  .min(1, 'productSlug is required')
  .refine(isStorable, 'productSlug is required');

export const UpsertBody = z
  .object({
    productSlug: ProductSlug,
    opensAt: When('opensAt'),
    closesAt: When('closesAt'),
    capacity: Count('capacity', 100_000).describe('Seats; null for no limit'),
    perCustomerLimit: Count('perCustomerLimit', 100).describe('Reservations one address may hold; null for no limit'),
    shipsIn: Text('shipsIn', 100).describe('When it ships, as the shop says it (2027年2月下旬)'),
    note: Text('note', 500),
    expectedUpdatedAt: expectedUpdatedAt(
      'The campaign’s updatedAt the change was made from (null: made as a new campaign); when it was saved (or deleted, or created) since, 409 and nothing is written',
    ),
  })
  .describe('Fields left out keep their value (null when the campaign is created); null clears one');

export const ProductSlugBody = z.object({ productSlug: ProductSlug });

export const DeleteBody = z.object({
  productSlug: ProductSlug,
  force: z
    .boolean({ error: 'force must be a boolean' })
    .optional()
    .describe('Delete even while reservations that are not cancelled hold seats of it (lifting the product’s limits)'),
});

export const EmptyBody = z.object({}).describe('No fields');

export const AdminPreorderSchema = z
  .object({
    id: z.string().describe('pre_<uuid v7>: the campaign a reservation names in preorderId'),
    productSlug: z.string(),
    opensAt: z.string().nullable(),
    closesAt: z.string().nullable(),
    capacity: z.number().int().nullable(),
    perCustomerLimit: z.number().int().nullable(),
    shipsIn: z.string().nullable(),
    note: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    reserved: z.number().int().describe('Its reservations that are not cancelled, archived ones included'),
    remaining: z.number().int().nullable().describe('max(0, capacity − reserved); null without a capacity'),
    state: PreorderStateSchema,
  })
  .meta({ id: 'AdminPreorder' });

export const PublicPreorderSchema = z
  .object({
    productSlug: z.string(),
    state: PreorderStateSchema,
    opensAt: z.string().nullable().describe('UTC; null: open from its creation'),
    closesAt: z.string().nullable().describe('UTC; null: no closing time'),
    capacity: z.number().int().nullable().describe('null: no limit'),
    remaining: z.number().int().nullable().describe('Seats left (「残りN台」); null without a capacity'),
    shipsIn: z.string().nullable(),
    note: z.string().nullable(),
  })
  .meta({ id: 'Preorder' });

export const PublicQuery = z.object({
  productSlug: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((slugs) => {
      // A value PostgreSQL cannot hold names no product either.
      const listed = [slugs ?? []].flat().filter((slug) => slug !== '' && isStorable(slug));
      return listed.length > 0 ? listed : undefined;
    })
    .describe('A product; repeat for several; absent (or only empty values) for every campaign'),
});

export const AdminListResponse = z.object({ success: z.literal(true), preorders: z.array(AdminPreorderSchema) });
export const UpsertResponse = z.object({ success: z.literal(true), preorder: AdminPreorderSchema });
export const DeleteResponse = z.object({ success: z.literal(true) });
export const PublicListResponse = z.object({ success: z.literal(true), preorders: z.array(PublicPreorderSchema) });
