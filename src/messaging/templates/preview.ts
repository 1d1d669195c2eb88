import type { Catalog } from '../../catalog/catalog.ts';
import type { Database } from '../../db/database.ts';
import { uuidV7 } from '../../db/time-ordered-id.ts';
import { listPreorders } from '../../preorders/store.ts';
import { readShop } from '../../shop/shop.ts';
import { productPageUrl } from '../links.ts';
import { isTemplateKind, type TemplateKind } from '../kinds.ts';
import type { EmailContent } from '../outbox/message.ts';
import type { TemplateRefusal } from './editing.ts';
import { emailHeaders, placeholderValues, type QueuedEmail } from './facts.ts';
import { templateProblems } from './placeholders.ts';
import { renderTemplate } from './render.ts';
import { currentVersion } from './store.ts';

/**
 * The sample reservation's number: numbering starts at 1001 and only goes up (a restore too moves
 * it past every number given), so 1000 is never a customer's, and no one who reads a sample email
 * can take it for a real reservation or find a stranger's under it.
 */
export const SAMPLE_RESERVATION_NUMBER = 1000;

/** The subject's start of a test send. */
export const TEST_SEND_SUBJECT = '【テスト送信】';

/** The line a test send starts with, saying it is one and that its reservation is no one's. */
function testSendLine(kind: TemplateKind): string {
  const sample = kind === 'restock-available' ? '' : `ご予約番号 ${SAMPLE_RESERVATION_NUMBER} などは見本で、`;
  return `※ これはメールテンプレートのテスト送信です（お客様には送られていません）。${sample}実際のご予約やお客様とは関係ありません。`;
}

/**
 * The given text (or the current one) rendered as a customer would receive it, with the values of
 * a real catalog product (and its preorder campaign, if it has one), a made-up reservation and the
 * shop's own details as saved. `asTestSend` marks it as a test in its subject and first line, so a
 * test send in a mailbox is never read as a real customer's email.
 */
export async function previewTemplate(
  deps: { database: Database; catalog: Catalog; publicBaseUrl: string; storefrontUrl: string },
  request: { kind: string; subject?: string; body?: string },
  asTestSend = false,
): Promise<{ ok: true; email: EmailContent } | TemplateRefusal> {
  if (!isTemplateKind(request.kind)) return { ok: false, reason: 'templateNotFound' };
  const current = (await currentVersion(deps.database.db, request.kind))!;
  const text = { subject: request.subject ?? current.subject, body: request.body ?? current.body };
  const details = templateProblems(request.kind, text);
  if (details.length > 0) return { ok: false, reason: 'invalid', details };
  const email = await sampleEmail(deps, request.kind);
  const shop = await readShop(deps.database.db);
  const rendered = asTestSend
    ? { subject: `${TEST_SEND_SUBJECT}${text.subject}`, body: `${testSendLine(request.kind)}\n\n${text.body}` }
    : text;
  return { ok: true, email: renderTemplate(rendered, placeholderValues(email, shop), emailHeaders(email, shop)) };
}

/** An email of `kind` about a real product (one with a price, if any has; its campaign's words, if it has one) and a sample customer. */
async function sampleEmail(
  deps: { database: Database; catalog: Catalog; publicBaseUrl: string; storefrontUrl: string },
  kind: TemplateKind,
): Promise<Omit<QueuedEmail, 'version'>> {
  const products = deps.catalog.entries.map((e) => e.product);
  const product = products.find((p) => p.price !== null) ??
    products[0] ?? { slug: '', name: 'サンプル商品', price: null, detailHref: null };
  const productUrl = productPageUrl(deps.storefrontUrl, product);
  if (kind === 'restock-available') {
    return {
      template: kind,
      facts: {
        productName: product.name,
        productUrl,
        price: product.price,
        unsubscribeUrl: `${deps.publicBaseUrl}/api/notify/unsubscribe?token=sample`,
      },
    };
  }
  const reservationId = `res_${uuidV7()}`;
  const [campaign] = product.slug ? await listPreorders(deps.database.db, [product.slug]) : [];
  return {
    template: kind,
    facts: {
      reservationId,
      reservationNumber: SAMPLE_RESERVATION_NUMBER,
      name: '山田 太郎',
      createdAt: new Date().toISOString(),
      productName: product.name,
      productUrl,
      price: product.price,
      manageUrl: `${deps.publicBaseUrl}/reservations/manage?token=sample`,
      shipsIn: campaign?.ships_in ?? '',
      preorderNote: campaign?.note ?? '',
    },
  };
}
