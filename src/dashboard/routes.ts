import { z } from 'zod';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { PreorderStateSchema } from '../preorders/schemas.ts';
import { keywordFigures } from '../keyword-log/analytics.ts';
import { coalesce } from './coalesce.ts';
import { dashboardStats, type DashboardDeps } from './stats.ts';

const Count = z.number().int();

const RecordCounts = z
  .object({
    total: Count.describe('Active and archived records'),
    archived: Count,
    byStatus: z.record(z.string(), Count).describe('All records per status; every known status is present, legacy ones when found'),
  })
  .meta({ id: 'RecordCounts' });

const KeywordCounts = z
  .array(z.object({ keyword: z.string(), count: Count }).meta({ id: 'KeywordCount' }))
  .describe('At most 10, most searched first (ties by keyword)');

export const DashboardBody = z.object({}).describe('No fields');

export const DashboardResponse = z.object({
  success: z.literal(true),
  reservations: RecordCounts,
  subscriptions: RecordCounts,
  products: z
    .array(
      z.object({
        productSlug: z.string(),
        name: z.string().nullable().describe('From the catalog; null for a product no longer in it'),
        reservations: Count.describe('Active and archived, cancelled ones included'),
        reservationsNotCancelled: Count.describe(
          'Active and archived, cancelled ones left out: as a preorder campaign counts its seats taken (an extension)',
        ),
        pendingSubscriptions: Count.describe('Active pending subscriptions: who the next send would notify'),
      }),
    )
    .describe(
      'Every product with at least one reservation or subscription, most wanted first (reservations + pendingSubscriptions; ties by slug)',
    ),
  searches: z
    .object({
      total: Count,
      zeroResults: Count.describe('Searches that found nothing'),
      topKeywords: KeywordCounts,
      topZeroResultKeywords: KeywordCounts,
      perDay: z
        .array(z.object({ date: z.string().describe('YYYY-MM-DD, a Japan calendar day'), count: Count }))
        .describe(
          'Searches on each of the 30 Japan calendar days ending today, oldest first, days without searches as 0 (an extension, for the chart)',
        ),
    })
    .describe('The last 30 days up to now'),
  outbox: z.object({
    pending: Count.describe('Messages still to deliver'),
    dead: Count.describe('Messages given up (after their last attempt, or at once when the provider refused them for good)'),
    sent: Count.describe('Messages sent in the last 30 days'),
    skipped: Count.describe('Emails queued in the last 30 days and not sent because no email provider is configured (an extension)'),
    superseded: Count.describe(
      'Emails queued in the last 30 days and not sent because their record changed so that they were no longer true (superseded)',
    ),
  }),
  deliverability: z
    .object({
      hardBounces: Count.describe('Hard bounces in the last 30 days (the provider’s, and SMTP 5xx refusals of the recipient)'),
      softBounces: Count.describe('Soft bounces in the last 30 days'),
      complaints: Count.describe('Spam complaints in the last 30 days'),
      restockSent: Count.describe('Restock emails sent in the last 30 days'),
      restockComplaints: Count.describe('Complaints in the last 30 days about restock emails'),
      restockComplaintRate: z.number().nullable().describe('restockComplaints / restockSent; null when none was sent'),
      complaintRateLimit: z.number().describe('0.003: the rate above which Gmail and Yahoo throttle and block a sender'),
    })
    .describe('The sender’s reputation (docs/operations.md#bounces-and-complaints); events are kept as long as messages'),
  preorders: z
    .array(
      z.object({
        productSlug: z.string(),
        state: PreorderStateSchema,
        capacity: Count.nullable(),
        reserved: Count.describe('Its reservations that are not cancelled, archived ones included'),
        remaining: Count.nullable().describe('null without a capacity'),
      }),
    )
    .describe('Every preorder campaign, by productSlug'),
});

export function dashboardRoutes(deps: DashboardDeps): Route[] {
  // Staff opening the dashboard together share one computation: it stays one query at a time on
  // one connection however many ask, and each still sees figures computed after it asked.
  const keywords = keywordFigures();
  const stats = coalesce(() => dashboardStats(deps, keywords));
  return [
    defineRoute({
      method: 'POST',
      path: '/api/admin-dashboard-stats',
      tag: 'Admin: dashboard',
      summary: 'Figures for the admin dashboard',
      description:
        'Reservations and subscriptions by status, demand per product, searches of the last 30 days, and notifications waiting, given up, sent and skipped; all computed as aggregates in the store.' +
        ' Body `{}` → `{success, reservations:{total, archived, byStatus}, subscriptions:{total, archived, byStatus}, products:[{productSlug, name, reservations, reservationsNotCancelled, pendingSubscriptions}], searches:{total, zeroResults, topKeywords, topZeroResultKeywords, perDay}, outbox:{pending, dead, sent, skipped, superseded}, deliverability:{hardBounces, softBounces, complaints, restockSent, restockComplaints, restockComplaintRate, complaintRateLimit}, preorders:[{productSlug, state, capacity, reserved, remaining}]}`. ' +
        '`outbox.sent` counts messages sent in the last 30 days; `outbox.skipped` (an extension) the emails queued in the last 30 days that were not sent because no email provider is configured (chat messages for an unset webhook are skipped by design and not counted); `outbox.superseded` the messages queued in the last 30 days that were not sent because their record had changed so that they were no longer true. ' +
        '`total` counts active and archived records; `products` lists every product with a reservation or a subscription, its `reservations` counting them all (active and archived, cancelled ones included) and `reservationsNotCancelled` (an extension) those not cancelled, active and archived, as a preorder campaign counts its `reserved` seats; ' +
        "`deliverability` counts the last 30 days' bounces and complaints, and the restock email's complaint rate against `complaintRateLimit` (0.003, past which Gmail and Yahoo throttle a sender; null when none was sent); top search lists hold at most 10 keywords; `perDay` (30 entries `{date:'YYYY-MM-DD', count}` for the Japan calendar days ending today, oldest first) is an extension, for the console's chart. " +
        "Concurrent requests share one computation, each still computed after it was asked (the searches' sums of hours ended over 10 minutes ago are kept until the next hour: [search.md](search.md#the-keyword-log)).",
      cors: 'any',
      admin: true,
      body: DashboardBody,
      responses: {
        200: { description: 'The figures', schema: DashboardResponse },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c) => replyJson(c, 200, { success: true, ...(await stats()) }),
    }),
  ];
}
