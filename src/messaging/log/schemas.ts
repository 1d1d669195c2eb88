import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { BulkItemErrorSchema } from '../../http/schemas.ts';
import { INVALID_PARAMETERS, type InvalidInput } from '../../http/route.ts';
import { detailsFrom } from '../../http/validation.ts';
import { pagingFields } from '../../records/admin-fields.ts';
import { BulkBody } from '../../records/schemas.ts';
import { isStorable } from '../../text/storable-text.ts';
import { MESSAGE_CHANNELS as CHANNELS, MESSAGE_STATUSES as STATUSES, MessageSchema } from '../logged-message.ts';

export const ListBody = z.object({
  recordId: z
    .string({ error: 'recordId must be a string' })
    .refine(isStorable, 'recordId must not contain NUL')
    .optional()
    .describe("The reservation or subscription the messages are about; '' or absent for all"),
  status: z
    .union([z.enum(STATUSES), z.literal('')], { error: `status must be one of ${STATUSES.join(', ')}` })
    .optional()
    .describe("'' or absent for all"),
  channel: z
    .union([z.enum(CHANNELS), z.literal('')], { error: `channel must be one of ${CHANNELS.join(', ')}` })
    .optional()
    .describe("'' or absent for both"),
  ...pagingFields,
});

/** The list's 400: `Invalid status` or `Invalid channel` when one is at fault, else the field's own message. */
export const listProblem: InvalidInput = {
  codes: ['invalid_status', 'invalid_channel', 'invalid_parameters'],
  error(issues) {
    const details = detailsFrom(issues);
    const fields = issues.map((issue) => String(issue.path[0]));
    if (fields.includes('status')) return new AppError('invalid_status', 'Invalid status', { details });
    if (fields.includes('channel')) return new AppError('invalid_channel', 'Invalid channel', { details });
    return new AppError('invalid_parameters', issues[0]?.message ?? INVALID_PARAMETERS, { details });
  },
};

export const ListResponse = z.object({
  success: z.literal(true),
  messages: z.array(
    MessageSchema.extend({
      reservation: z
        .object({ number: z.number().int(), name: z.string() })
        .nullable()
        .describe(
          'The reservation it is about, by the number customers quote and its name; null for any other message, or one about an erased reservation',
        ),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
});

export const RetryBody = BulkBody.extend({ ids: BulkBody.shape.ids.describe('Message ids; each is handled on its own') });

export const RetryResponse = z.object({
  success: z.literal(true),
  retriedCount: z.number().int(),
  retriedIds: z.array(z.string()),
  errors: z
    .array(BulkItemErrorSchema)
    .optional()
    .describe('Items not retried (Invalid item, Message not found, Message is not dead, Message is superseded); absent when none'),
});
