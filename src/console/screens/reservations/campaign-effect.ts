import type { Output } from '../../../client/tenpo-client.ts';
import { productName } from '../../api/products.ts';
import type { CampaignEffect } from '../../records/record-kind.ts';
import type { ScreenContext } from '../../screen.ts';

type Reservation = Output<'/api/admin-reservations-list'>['reservations'][number];

/**
 * A cancellation gives its seat back to the reservation's campaign, and a full (満席) campaign then
 * takes reservations again: the next customer gets the seat. Staff are told so before they cancel,
 * with the way to keep it shut (受付を終了, which a cancellation never reopens), and again once
 * done. Read from the campaigns as they are now; nothing is said of one still open or closed.
 */
export async function reservationCampaignEffect(
  context: ScreenContext,
  records: Reservation[],
  status: string,
): Promise<CampaignEffect | undefined> {
  const freeing = new Set(records.filter((r) => status === 'cancelled' && r.status !== 'cancelled').map((r) => r.preorderId));
  freeing.delete(null);
  if (freeing.size === 0) return undefined;
  const { preorders } = await context.api.call('/api/admin/preorders/list', {});
  const full = preorders.filter((p) => p.state === 'soldOut' && freeing.has(p.id));
  if (full.length === 0) return undefined;
  const names = full.map((p) => `「${productName(context.products, p.productSlug)}」`).join('・');
  return {
    before: `${names}の予約受付は満席ですが、キャンセルで空きができ、再び予約を受け付けるようになります。受け付けない場合は、予約受付の画面で「受付を終了」してください。`,
    after: `${names}の予約受付に空きができ、再び予約を受け付けています（止めるには予約受付の画面で「受付を終了」）。`,
  };
}
