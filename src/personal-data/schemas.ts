import { z } from 'zod';
import { MessageSchema } from '../messaging/logged-message.ts';
import { HeldSuppressionSchema } from '../messaging/about-records.ts';
import { HistoryEntrySchema } from '../records/history.ts';
import { ActiveReservationSchema, activeReservation } from '../reservations/schemas.ts';
import type { Reservation } from '../reservations/store.ts';
import { isStorable } from '../text/storable-text.ts';
import { ActiveSubscriptionSchema, subscriptionFacts } from '../subscriptions/schemas.ts';
import type { Subscription } from '../subscriptions/store.ts';
import { codePointLength } from '../text/code-points.ts';

// What the personal-data endpoints take and answer with.

export const EMAIL_MESSAGE = 'email must be an address (local part, @, domain) of at most 254 characters';

/**
 * The address asked about. Looser than the forms' check: an address the shop holds from before
 * (or typed with a Unicode domain) must still be found, so anything shaped `local@domain` will do.
 */
export const AddressBody = z.object({
  email: z
    .string({ error: EMAIL_MESSAGE })
    .transform((email) => email.trim())
    .refine(
      (email) => codePointLength(email) <= 254 && isStorable(email) && /^[^\s@]+@[^\s@]+$/u.test(email) && email.isWellFormed(),
      EMAIL_MESSAGE,
    )
    .describe(
      'The customer’s address; matched in its canonical form: case-insensitively, without a +tag, and for gmail.com and googlemail.com without dots and as one domain (a Unicode domain matches its punycode form)',
    ),
});

const archivedAt = z.string().nullable().describe('When it was archived; null while active');

export const PersonalReservationSchema = ActiveReservationSchema.extend({
  respondedAt: z.string().nullable().describe('First move away from pending; null if never'),
  archivedAt,
}).meta({ id: 'PersonalDataReservation' });

export const PersonalSubscriptionSchema = ActiveSubscriptionSchema.omit({ unsubscribedByCustomer: true })
  .extend({ archivedAt })
  .meta({ id: 'PersonalDataSubscription' });

export const PersonalHistorySchema = z
  .object({
    recordId: z.string().describe('A reservation or subscription of the answer'),
    entries: z
      .array(HistoryEntrySchema)
      .describe(
        'Its changes, oldest first: status moves, memo edits (both texts), archiving and restoring, and staff’s resends of its messages, each with who made it; its messages themselves are in `messages`',
      ),
  })
  .meta({ id: 'PersonalDataHistory' });

export const ExportResponse = z.object({
  success: z.literal(true),
  email: z
    .string()
    .describe('The address as looked up: its canonical form (trimmed, lowercased, its domain in ASCII, no +tag, gmail’s dots removed)'),
  reservations: z.array(PersonalReservationSchema).describe('Active and archived, newest first'),
  subscriptions: z.array(PersonalSubscriptionSchema).describe('Active and archived, newest first'),
  messages: z
    .array(MessageSchema)
    .describe('Emails and chat notices about those records or sent to the address, whatever their state, newest first'),
  suppressions: z
    .array(HeldSuppressionSchema)
    .describe('The address’s suppression (a bounce, a complaint), lifted or in force; none when it was never suppressed'),
  history: z.array(PersonalHistorySchema).describe('One per record, the reservations then the subscriptions, in their order above'),
});

export const EraseResponse = z.object({
  success: z.literal(true),
  erased: z
    .object({
      reservations: z.number().int(),
      subscriptions: z.number().int(),
      messages: z.number().int(),
      suppressions: z
        .number()
        .int()
        .describe('Suppressions kept from now on as a keyed hash of the address only, so it is still not mailed'),
    })
    .describe('How many of each were deleted; all 0 when the address held nothing'),
});

export const personalReservation = (row: Reservation): z.output<typeof PersonalReservationSchema> => ({
  ...activeReservation(row),
  respondedAt: row.responded_at,
  archivedAt: row.archived_at,
});

export const personalSubscription = (row: Subscription): z.output<typeof PersonalSubscriptionSchema> => ({
  ...subscriptionFacts(row),
  archivedAt: row.archived_at,
});
