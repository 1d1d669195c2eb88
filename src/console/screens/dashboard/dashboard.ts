import type { Output } from '../../../client/tenpo-client.ts';
import { barChart, dailyChart } from './charts.ts';
import { h, replace, type Child } from '../../ui/dom.ts';
import { formatCount } from '../../ui/format.ts';
import { labelOf, RESERVATION_STATUS_LABELS, SUBSCRIPTION_STATUS_LABELS } from '../../../words/labels.ts';
import { placeholder } from '../../records/record-table.ts';
import { productName } from '../../api/products.ts';
import { PREORDER_STATE_LABELS } from '../preorders/preorders.ts';
import type { Screen, ScreenContext } from '../../screen.ts';

type Stats = Output<'/api/admin-dashboard-stats'>;

/**
 * The figures at a glance: totals, campaign seats, records by status and product, searches, and the
 * notifications sent, owed, given up and skipped. Each figure says what it counts, and counts as
 * the list it stands for does.
 */
export function openScreen(context: ScreenContext): Screen {
  return {
    show(container) {
      const body = h('div');
      replace(
        container,
        h(
          'div',
          { class: 'view-head' },
          h('h1', {}, 'ダッシュボード'),
          h('button', { type: 'button', onClick: () => void load() }, '更新'),
        ),
        body,
      );

      async function load(): Promise<void> {
        body.setAttribute('aria-busy', 'true');
        replace(body, placeholder('読み込み中…'));
        try {
          replace(body, ...figures(await context.api.call('/api/admin-dashboard-stats', {}), context));
        } catch (error) {
          context.fail(error);
          replace(body, placeholder('集計を読み込めませんでした。', h('button', { type: 'button', onClick: () => void load() }, '再試行')));
        } finally {
          body.removeAttribute('aria-busy');
        }
      }
      void load();
    },
  };
}

function figures(stats: Stats, context: ScreenContext): Node[] {
  const { reservations, subscriptions, searches, outbox } = stats;
  const cancelled = reservations.byStatus['cancelled'] ?? 0;
  const byStatus = (counts: Record<string, number>, labels: Record<string, string>) =>
    Object.entries(counts).map(([status, count]) => ({ label: labelOf(labels, status), values: [count] }));
  const keywords = (list: { keyword: string; count: number }[]) => list.map((entry) => ({ label: entry.keyword, values: [entry.count] }));
  return [
    h(
      'div',
      { class: 'cards' },
      card(
        '予約（キャンセルを除く）',
        reservations.total - cancelled,
        `アーカイブ済みを含み、キャンセル ${formatCount(cancelled)} 件を除きます。予約一覧には ${formatCount(reservations.total - reservations.archived)} 件（キャンセルを含む）、アーカイブ済みは ${formatCount(reservations.archived)} 件です。`,
      ),
      card(
        '再入荷通知の登録（アーカイブ済みを除く）',
        subscriptions.total - subscriptions.archived,
        `再入荷通知の一覧の件数です（通知済み・登録解除を含む）。ほかにアーカイブ済み ${formatCount(subscriptions.archived)} 件（全 ${formatCount(subscriptions.total)} 件）`,
      ),
      card('検索（過去30日）', searches.total, `結果0件 ${formatCount(searches.zeroResults)} 件`),
      card('送信済み（過去30日）', outbox.sent, 'メールとチャット投稿'),
      card('配信待ち', outbox.pending, outbox.pending > 0 ? '送信中か、失敗して再試行を待っています' : 'ありません'),
      card(
        '配信できなかった通知',
        outbox.dead,
        outbox.dead > 0 ? '再試行を使い切ったか、送信先に拒否されました。届いていません' : '配信の失敗はありません',
        outbox.dead > 0,
        outbox.dead > 0 ? h('a', { href: '#/messages?status=dead' }, '送信履歴で確認して再送する') : null,
      ),
      // Not delivery failures: nothing was tried, because no email provider is configured (a fault to
      // fix), or because the record changed so that the email was no longer true (withdrawn).
      card(
        '送られていないメール',
        outbox.skipped + outbox.superseded,
        notSent(outbox),
        outbox.skipped > 0,
        outbox.superseded > 0 ? h('a', { href: '#/messages?status=superseded' }, '送信取りやめを送信履歴で見る') : null,
      ),
      deliverability(stats.deliverability),
    ),
    seats(stats.preorders, context),
    h(
      'div',
      { class: 'charts' },
      barChart('予約（ステータス別・アーカイブ済みを含む）', byStatus(reservations.byStatus, RESERVATION_STATUS_LABELS)),
      barChart('再入荷通知の登録（ステータス別・アーカイブ済みを含む）', byStatus(subscriptions.byStatus, SUBSCRIPTION_STATUS_LABELS)),
      barChart(
        '商品別の予約と通知待ち',
        stats.products.map((p) => ({
          label: p.name ?? context.products.get(p.productSlug)?.name ?? p.productSlug,
          values: [p.reservationsNotCancelled, p.pendingSubscriptions],
        })),
        ['予約（キャンセルを除く・アーカイブ済みを含む）', '通知待ちの登録（アーカイブ済みを除く）'],
      ),
      dailyChart('日別の検索数（過去30日）', searches.perDay),
      barChart('よく検索されたキーワード（過去30日）', keywords(searches.topKeywords)),
      barChart('結果が0件だったキーワード（過去30日）', keywords(searches.topZeroResultKeywords)),
    ),
  ];
}

/** Why emails of the last 30 days were not sent: no email provider, or withdrawn as no longer true. */
function notSent(outbox: { skipped: number; superseded: number }): string {
  const reasons = [
    outbox.skipped > 0 && `${formatCount(outbox.skipped)} 件のメールは送信設定がないため送られていません`,
    outbox.superseded > 0 &&
      `${formatCount(outbox.superseded)} 件はご予約や登録の状況が変わり内容が事実と合わなくなったため、送信を取りやめました`,
  ].filter((reason) => reason !== false);
  return reasons.length > 0 ? `${reasons.join('。')}（過去30日）` : 'ありません（過去30日）';
}

/**
 * Each campaign's seats as 予約受付 shows them: reserved against capacity and what is left, counted
 * by the campaign itself (reservations taken under it and not cancelled, archived ones included).
 */
function seats(preorders: Stats['preorders'], context: ScreenContext): HTMLElement {
  const heading = h('h2', {}, '予約受付の台数');
  if (preorders.length === 0)
    return h('section', { class: 'chart seats-summary' }, heading, h('p', { class: 'empty' }, '予約受付中の商品はありません。'));
  const cell = (label: string, content: string) => h('td', { 'data-label': label }, content);
  return h(
    'section',
    { class: 'chart seats-summary' },
    heading,
    h(
      'table',
      { class: 'records' },
      h('thead', {}, h('tr', {}, ...['商品', '状態', '予約数', '台数', '残り'].map((label) => h('th', {}, label)))),
      h(
        'tbody',
        {},
        ...preorders.map((p) =>
          h(
            'tr',
            { 'data-product': p.productSlug },
            cell('商品', productName(context.products, p.productSlug)),
            cell('状態', PREORDER_STATE_LABELS[p.state]),
            cell('予約数', `${formatCount(p.reserved)} 台`),
            cell('台数', p.capacity === null ? '上限なし' : `${formatCount(p.capacity)} 台`),
            cell('残り', p.remaining === null ? '—' : `${formatCount(p.remaining)} 台`),
          ),
        ),
      ),
    ),
    h(
      'p',
      { class: 'sub' },
      '予約受付の画面と同じ数え方です: キャンセルした予約は数えず、アーカイブ済みの予約は数えます。受付を作る前に受けた予約や、削除した受付で受けた予約は入りません。 ',
      h('a', { href: '#/preorders' }, '予約受付を開く'),
    ),
  );
}

/**
 * 迷惑メールの報告 of the last 30 days, with the restock mail's complaint rate against the 0.3 % above
 * which Gmail and Yahoo throttle the shop's mail; an alert past it.
 */
function deliverability(figures: Stats['deliverability']): HTMLElement {
  const rate = figures.restockComplaintRate;
  const over = rate !== null && rate >= figures.complaintRateLimit;
  const percent = (value: number) => `${(value * 100).toFixed(value < 0.01 ? 2 : 1)} %`;
  const rateText =
    rate === null
      ? '再入荷通知メールの送信はありません'
      : `再入荷通知メールの報告率 ${percent(rate)}（上限 ${percent(figures.complaintRateLimit)}${over ? 'を超えています' : '未満'}）`;
  return card(
    '迷惑メールの報告（過去30日）',
    figures.complaints,
    `${rateText}。宛先不明 ${formatCount(figures.hardBounces)} 件、一時的な不達 ${formatCount(figures.softBounces)} 件`,
    over,
    figures.complaints + figures.hardBounces > 0 ? h('a', { href: '#/suppressions' }, '配信停止の一覧を見る') : null,
  );
}

function card(label: string, value: number, sub: string, alert = false, action: Child = null): HTMLElement {
  return h(
    'div',
    { class: alert ? 'card alert' : 'card' },
    h('div', { class: 'label' }, label),
    h('div', { class: 'value' }, formatCount(value)),
    h('div', { class: 'sub' }, sub),
    action,
  );
}
