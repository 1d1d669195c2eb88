import type { Catalog } from '../../catalog/catalog.ts';
import type { Database } from '../../db/database.ts';
import { uuidV7 } from '../../db/time-ordered-id.ts';
import type { SendEmail } from '../delivery/delivery.ts';
import { singleLine } from '../../text/safe-text.ts';
import type { TemplateRefusal } from './editing.ts';
import { previewTemplate } from './preview.ts';

/** Longest provider reason passed back to staff; the rest is the provider's own detail. */
const MAX_REASON_LENGTH = 300;

export type TestSendResult =
  { ok: true; status: 'sent' | 'skipped' } | TemplateRefusal | { ok: false; reason: 'providerFailed'; message: string };

/**
 * Staff's 「テスト送信」: the given (or current) text rendered as the preview renders it, marked
 * テスト送信 in its subject and first line (previewTemplate's asTestSend), sent to the
 * address staff typed through the configured provider at once, not through the outbox. A test send
 * is a question ("does this read well in a real mail client, is the provider set up?") whose answer
 * staff wait for: the provider's refusal comes back in the same request, where queuing would hide it
 * behind hours of retries. Nothing is stored, so a staff address is never kept in the message log,
 * and a failed test send is simply tried again by hand.
 */
export async function testSendTemplate(
  deps: { database: Database; catalog: Catalog; publicBaseUrl: string; storefrontUrl: string; sendEmail: SendEmail },
  request: { kind: string; to: string; subject?: string; body?: string },
): Promise<TestSendResult> {
  const preview = await previewTemplate(deps, request, true);
  if (!preview.ok) return preview;
  try {
    return { ok: true, status: await deps.sendEmail(preview.email, request.to, `test-send/${uuidV7()}`) };
  } catch (error) {
    // The senders' errors name the provider's status and answer, never its URL or key (http-post.ts).
    const reason = singleLine(error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON_LENGTH);
    return { ok: false, reason: 'providerFailed', message: reason };
  }
}
