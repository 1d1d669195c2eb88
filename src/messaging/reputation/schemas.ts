import { z } from 'zod';
import { pagingFields } from '../../records/admin-fields.ts';
import { isStorable } from '../../text/storable-text.ts';
import { codePointLength } from '../../text/code-points.ts';
import { parseIso8601 } from '../../text/iso-8601.ts';

const IDENTIFIER_MESSAGE = 'must be a string of 1 to 200 characters';
const identifier = z.string({ error: IDENTIFIER_MESSAGE }).min(1, IDENTIFIER_MESSAGE).max(200, IDENTIFIER_MESSAGE).refine(isStorable);

/** The part of a Resend event the service reads; the rest of it is ignored. */
export const ProviderEventBody = z.object({
  type: z
    .string({ error: 'type must be a string' })
    .max(100)
    .describe('email.bounced, email.complained, email.delivered, email.delivery_delayed; others are ignored'),
  created_at: z
    .string({ error: 'created_at must be an ISO 8601 time' })
    .transform((value, ctx) => {
      const time = parseIso8601(value);
      if (time !== undefined) return new Date(time).toISOString();
      ctx.addIssue({ code: 'custom', message: 'created_at must be an ISO 8601 time' });
      return z.NEVER;
    })
    .optional()
    .describe('When it happened; absent: when it is received'),
  data: z.object(
    {
      email_id: identifier.optional().describe('The id the provider gave the email when it took it; absent for events of no email'),
      bounce: z
        .object({
          type: z.string().max(100).optional().describe('Permanent (a hard bounce); anything else is a soft bounce'),
          message: z.string().max(10_000).optional(),
        })
        .optional(),
    },
    { error: 'data must be an object' },
  ),
});
export type ProviderEvent = z.output<typeof ProviderEventBody>;

export const EventAnswer = z.object({
  success: z.literal(true),
  outcome: z
    .enum(['recorded', 'already_recorded', 'ignored'])
    .describe('already_recorded: an event with this svix-id was taken before; ignored: of another type, or of no email the shop sent'),
});

const REASONS = ['hard_bounce', 'complaint', 'soft_bounces'] as const;
const REASON_MESSAGE = `reason must be one of ${REASONS.join(', ')}`;

export const SuppressionSchema = z
  .object({
    address: z.string().describe('The canonical address; for a customer erased since, `erased:` and a keyed hash of it'),
    erased: z.boolean().describe('Its customer was erased: the address itself is no longer kept'),
    reason: z.enum(REASONS).describe('hard_bounce and complaint suppress at once; soft_bounces: 3 within 7 days'),
    since: z.string(),
    retriedAt: z
      .string()
      .nullable()
      .describe('When an email the customer’s own action caused was let through once, the hard bounce being older than 30 days'),
  })
  .meta({ id: 'EmailSuppression' });

/** A suppression as a customer's personal-data export shows it: lifted ones too, with when and why. */
export const HeldSuppressionSchema = SuppressionSchema.extend({
  liftedAt: z.string().nullable(),
  liftReason: z.string().nullable(),
}).meta({ id: 'HeldEmailSuppression' });

export const SuppressionListBody = z.object({
  address: z
    .string({ error: 'address must be a string of at most 320 characters' })
    .max(320, 'address must be a string of at most 320 characters')
    .refine(isStorable, 'address must be a string of at most 320 characters')
    .optional()
    .describe("One customer's address as typed (its canonical form and, erased, its keyed hash are looked up); '' or absent for all"),
  reason: z
    .union([z.enum(REASONS), z.literal('')], { error: REASON_MESSAGE })
    .optional()
    .describe("'' or absent for all"),
  ...pagingFields,
});

export const SuppressionListResponse = z.object({
  success: z.literal(true),
  suppressions: z.array(SuppressionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
});

const LIFT_REASON_MESSAGE = 'reason must be a string of 1 to 500 characters';

export const LiftBody = z.object({
  address: z
    .string({ error: 'address must be an email address' })
    .min(3, 'address must be an email address')
    .max(320, 'address must be an email address')
    .refine((value) => isStorable(value) && value.includes('@'), 'address must be an email address')
    .describe('The address as the customer wrote it, or as the list shows it'),
  reason: z
    .string({ error: LIFT_REASON_MESSAGE })
    .trim()
    .refine((value) => value.length > 0 && codePointLength(value) <= 500 && isStorable(value), LIFT_REASON_MESSAGE)
    .describe('Why (the customer says the mailbox works again), kept with it'),
});

export const LiftResponse = z.object({ success: z.literal(true), lifted: SuppressionSchema });
