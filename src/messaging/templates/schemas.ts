import { z } from 'zod';
import { isEmailAddress } from '../../records/form-fields.ts';

// What the email template routes take and answer, for validation, the API reference and
// the typed client. Text fields are only typed here: their rules (lengths, placeholders) are the
// template's own, checked together so that every problem is listed (placeholders.ts).

export const INVALID_TEMPLATE = 'Invalid template';

const Kind = z
  .string({ error: 'kind must be a string' })
  .describe('reservation-received, reservation-confirmed, reservation-fulfilled, reservation-cancelled or restock-available');
const Subject = z.string({ error: 'subject must be a string' }).describe('One line of 1–200 characters with {{placeholder}} markers');
const Body = z
  .string({ error: 'body must be a string' })
  .describe('Plain text of 1–20,000 characters with {{placeholder}} markers; the HTML part is made from it');

export const TemplateSchema = z
  .object({
    kind: z.string(),
    subject: z.string(),
    body: z.string(),
    enabled: z.boolean(),
    version: z.number().int().describe('1, 2, 3… per kind; each saved change is a new version'),
    updatedAt: z.string().describe('When this version was saved'),
    isDefault: z.boolean().describe('Whether the text and enabled equal the shop’s Japanese default'),
    placeholders: z.array(z.object({ name: z.string(), required: z.boolean() })),
  })
  .meta({ id: 'EmailTemplate' });

export const TemplateVersionSchema = z
  .object({ version: z.number().int(), subject: z.string(), body: z.string(), enabled: z.boolean(), createdAt: z.string() })
  .meta({ id: 'EmailTemplateVersion' });

export const ListBody = z.object({});
export const ListResponse = z.object({ success: z.literal(true), templates: z.array(TemplateSchema) });

export const UpdateBody = z.object({
  kind: Kind,
  subject: Subject.optional(),
  body: Body.optional(),
  enabled: z
    .boolean({ error: 'enabled must be a boolean' })
    .optional()
    .describe('reservation-received and restock-available cannot be disabled'),
  expectedVersion: z
    .number({ error: 'expectedVersion must be a version number' })
    .int({ error: 'expectedVersion must be a version number' })
    .positive({ error: 'expectedVersion must be a version number' })
    .optional()
    .describe('The version the change was made from; when another was saved since, 409 and nothing is written'),
});
export const TemplateResponse = z.object({ success: z.literal(true), template: TemplateSchema });

export const PreviewBody = z.object({ kind: Kind, subject: Subject.optional(), body: Body.optional() });
export const PreviewResponse = z.object({ success: z.literal(true), subject: z.string(), text: z.string(), html: z.string() });

export const VersionsBody = z.object({ kind: Kind });
export const VersionsResponse = z.object({ success: z.literal(true), versions: z.array(TemplateVersionSchema) });

export const RevertBody = z.object({
  kind: Kind,
  version: z
    .number({ error: 'version must be a positive integer' })
    .int('version must be a positive integer')
    .positive('version must be a positive integer'),
});

const TO_MESSAGE = 'to must be a valid email address of at most 254 characters';

export const TestSendBody = z.object({
  kind: Kind,
  to: z
    .string({ error: TO_MESSAGE })
    .transform((to) => to.trim())
    .refine(isEmailAddress, TO_MESSAGE)
    .describe('Where to send it: validated as the public forms validate an address'),
  subject: Subject.optional(),
  body: Body.optional(),
});
export const TestSendResponse = z.object({
  success: z.literal(true),
  status: z
    .enum(['sent', 'skipped'])
    .describe('sent: the provider accepted it; skipped: no provider is configured, so it was written to the log instead'),
});
