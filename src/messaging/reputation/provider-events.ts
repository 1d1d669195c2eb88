import type { Context } from 'hono';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Database } from '../../db/database.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { AppError } from '../../http/app-error.ts';
import { requestHeader } from '../../http/request.ts';
import { emailByProviderId } from '../outbox/store.ts';
import type { EmailEventCounts } from './event-counts.ts';
import type { ProviderEvent } from './schemas.ts';
import type { EmailEventKind } from './store.ts';
import { recordEmailEvent, type OnComplaint } from './suppression.ts';

// The email provider's delivery events, as Resend sends them: signed the Svix way (`svix-id`,
// `svix-timestamp`, `svix-signature`: an HMAC-SHA256 of `id.timestamp.body` with the `whsec_`
// secret), which the Standard Webhooks library checks, refusing a timestamp more than 5 minutes
// off. Svix sends an event again, re-signed with a new timestamp, until it is acknowledged: that
// is taken as the same event (`svix-id`) and changes nothing; the same delivery sent again as it
// was (its id and timestamp both seen) is a replay, refused like a bad signature.

/**
 * Made when it is thrown: an error made as the module is loaded holds the stack of the bundle's
 * evaluation, and with it the bytecode of the bundle's top level, 0.65 MB kept for nothing.
 */
const signatureRefused = () => new AppError('invalid_webhook_signature', 'Invalid webhook signature');

/**
 * The check of the raw body: throws 404 when no secret is configured, 401 when the body is not
 * what the provider signed in the last 5 minutes. Its JSON is read afterwards, by the route.
 */
export function providerSignatureCheck(secret: string | undefined): (c: Context<AppEnv>, raw: string) => void {
  const webhook = secret === undefined ? undefined : new Webhook(secret);
  return (c, raw) => {
    if (!webhook) throw new AppError('webhook_not_configured', 'Email webhook not configured');
    const header = (name: string) => requestHeader(c, name) ?? '';
    try {
      webhook.verify(
        raw,
        { 'webhook-id': header('svix-id'), 'webhook-timestamp': header('svix-timestamp'), 'webhook-signature': header('svix-signature') },
        { jsonParse: false },
      );
    } catch (error) {
      if (error instanceof WebhookVerificationError) throw signatureRefused();
      throw error;
    }
  };
}

/** What taking an event came to: recorded, already recorded (a retry of it), or not about an email the shop sent (ignored). */
export type EventOutcome = 'recorded' | 'already_recorded' | 'ignored';

/**
 * Records a verified event on the email it is about, by the id the provider gave that email, and
 * applies its rule (suppression.ts), in one transaction. Events of other kinds, and those naming
 * an email the outbox does not hold (another system's on the same account, or one deleted since),
 * are ignored.
 */
export async function takeProviderEvent(
  deps: { database: Database; onComplaint: OnComplaint; counts: EmailEventCounts },
  event: ProviderEvent,
  webhook: { id: string; timestamp: string },
): Promise<EventOutcome> {
  const kind = kindOf(event);
  const emailId = event.data.email_id;
  if (kind === undefined || emailId === undefined) return 'ignored';
  const now = new Date().toISOString();
  const outcome = await deps.database.db.transaction().execute(async (trx): Promise<EventOutcome> => {
    const email = await emailByProviderId(trx, emailId);
    if (!email) return 'ignored';
    const recorded = await recordEmailEvent(
      trx,
      {
        outboxId: email.id,
        to: email.to,
        kind,
        occurredAt: event.created_at ?? now,
        detail: event.data.bounce?.message,
        webhook,
      },
      { now, onComplaint: deps.onComplaint },
    );
    if (recorded.recorded) return 'recorded';
    if (recorded.firstTimestamp === webhook.timestamp) throw signatureRefused();
    return 'already_recorded';
  });
  if (outcome === 'recorded') deps.counts.add(kind);
  return outcome;
}

/** Resend's event types as the service's kinds; a bounce is hard only when Resend calls it Permanent. */
function kindOf(event: ProviderEvent): EmailEventKind | undefined {
  switch (event.type) {
    case 'email.bounced':
      return event.data.bounce?.type === 'Permanent' ? 'hard_bounce' : 'soft_bounce';
    case 'email.complained':
      return 'complaint';
    case 'email.delivered':
      return 'delivered';
    case 'email.delivery_delayed':
      return 'delayed';
    default:
      return undefined;
  }
}
