import type { Database } from '../../db/database.ts';
import { staffIdOf } from '../../http/admin-auth.ts';
import { requestHeader } from '../../http/request.ts';
import { replyJson } from '../../http/reply.ts';
import { defineRoute, type Route } from '../../http/route.ts';
import { errorResponses } from '../../http/schemas.ts';
import { providerSignatureCheck, takeProviderEvent } from './provider-events.ts';
import { EventAnswer, LiftBody, LiftResponse, ProviderEventBody, SuppressionListBody, SuppressionListResponse } from './schemas.ts';
import type { EmailEventCounts } from './event-counts.ts';
import type { OnComplaint } from './suppression.ts';
import { liftSuppressed, listSuppressed } from './suppression-list.ts';

/** The provider's delivery events, and the suppressed addresses staff see and lift. */
export function reputationRoutes(deps: {
  database: Database;
  webhookSecret: string | undefined;
  addressKeySecret: string;
  onComplaint: OnComplaint;
  eventCounts: EmailEventCounts;
}): Route[] {
  const { database } = deps;
  const admin = { method: 'POST', tag: 'Admin: email suppressions', cors: 'any', admin: true } as const;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/webhooks/email',
      tag: 'Email provider',
      cors: 'none',
      summary: 'Take a delivery event of the email provider (Resend), signed the Svix way',
      description:
        'Verified against the raw body with `EMAIL_WEBHOOK_SECRET` (`svix-id`, `svix-timestamp`, `svix-signature`; a timestamp more than 5 minutes off is refused) before anything is read; unset, 404. The event is recorded on the email whose provider id it names: a hard bounce or a complaint suppresses the address (a complaint also unsubscribes every restock signup of it), the third soft bounce in 7 days too. An event with an svix-id taken before changes nothing (200); the same delivery sent again as it was is a replay (401). Events of other types, or naming no email the shop sent, are acknowledged and ignored.' +
        " The types read are Resend's `email.bounced`, `email.complained`, `email.delivered` and `email.delivery_delayed`. A bad, stale or replayed signature is `401 Invalid webhook signature` and nothing is stored; unset secret `404 Email webhook not configured`. " +
        "Body `{type, created_at?, data:{email_id, bounce?:{type, message}}}` → `{success, outcome}`: `recorded` on the email the provider knows by `email_id` (a `Permanent` bounce is a hard bounce, any other a soft one); `already_recorded` for an `svix-id` taken before (Svix's retry, re-signed); `ignored` for other types and emails the shop did not send. No CORS ([operations.md](operations.md#bounces-and-complaints)).",
      body: ProviderEventBody,
      verifyRawBody: providerSignatureCheck(deps.webhookSecret),
      errors: ['webhook_not_configured', 'invalid_webhook_signature'],
      responses: { 200: { description: 'Taken (or ignored)', schema: EventAnswer }, ...errorResponses(400, 401, 404, 413, 500) },
      handle: async (c, { body }) => {
        const webhook = { id: requestHeader(c, 'svix-id')!, timestamp: requestHeader(c, 'svix-timestamp')! };
        const outcome = await takeProviderEvent({ database, onComplaint: deps.onComplaint, counts: deps.eventCounts }, body, webhook);
        return replyJson(c, 200, { success: true, outcome });
      },
    }),
    defineRoute({
      ...admin,
      path: '/api/admin/email-suppressions/list',
      summary: 'List the addresses that get no email (bounced, complained), newest first',
      description:
        "Those in force, filtered by `reason`, or one customer's (`address`, as a record's page asks: its canonical form and an erased one's keyed hash); 20 a page by default (`pageSize` 1–100)." +
        " Body `{reason?, page?, pageSize?}` → `{success, suppressions:[{address, erased, reason, since, retriedAt}], total, page, pageSize, totalPages}`: `reason` `hard_bounce`, `complaint` or `soft_bounces` (3 within 7 days), `''` or absent for all; `address` the canonical address, or `erased:` and a keyed hash once its customer was erased (`erased: true`); " +
        '`retriedAt` when the confirmation of a reservation the customer made was let through once, the hard bounce being older than 30 days ([operations.md](operations.md#bounces-and-complaints)). Owner and staff.',
      body: SuppressionListBody,
      responses: {
        200: { description: 'One page of suppressions', schema: SuppressionListResponse },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c, { body }) => {
        const page = await listSuppressed(database, deps.addressKeySecret, {
          address: body.address || undefined,
          reason: body.reason || undefined,
          page: body.page,
          pageSize: body.pageSize,
        });
        return replyJson(c, 200, { success: true, ...page });
      },
    }),
    defineRoute({
      ...admin,
      path: '/api/admin/email-suppressions/lift',
      summary: 'Mail an address again: lift its hard bounce or soft bounces, with a reason',
      description:
        'The address as the customer writes it (its canonical form is looked up, and the keyed hash of an erased one). A complaint cannot be lifted (409). Who lifted it, when and why are kept; a new bounce suppresses it again.' +
        ' Body `{address, reason}` → `{success, lifted:{address, erased, reason, since, retriedAt}}`; `reason` 1–500 characters, trimmed. `404 Suppression not found` when none is in force; `409 A complaint cannot be lifted`. Owner and staff.',
      body: LiftBody,
      errors: ['suppression_not_found', 'complaint_not_liftable'],
      responses: { 200: { description: 'Lifted', schema: LiftResponse }, ...errorResponses(400, 401, 404, 409, 413, 500) },
      handle: async (c, { body }) => {
        const lifted = await liftSuppressed(database, deps.addressKeySecret, {
          address: body.address,
          reason: body.reason,
          by: staffIdOf(c),
          at: new Date().toISOString(),
        });
        return replyJson(c, 200, { success: true, lifted });
      },
    }),
  ];
}
