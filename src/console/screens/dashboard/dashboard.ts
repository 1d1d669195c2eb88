import type { Output } from '../../../client/tenpo-client.ts';
import { barChart, dailyChart } from './charts.ts';
import { h, replace, type Child } from '../../ui/dom.ts';
import { formatCount } from '../../ui/format.ts';
import { labelOf, RESERVATION_STATUS_LABELS, SUBSCRIPTION_STATUS_LABELS } from '../../../words/labels.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';

type Stats = Output<'/api/admin-dashboard-stats'>;

/** The figures at a glance: totals, records by status and product, searches, and the notifications sent, owed, given up and skipped. */
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
  const byStatus = (counts: Record<string, number>, labels: Record<string, string>) =>
    Object.entries(counts).map(([status, count]) => ({ label: labelOf(labels, status), values: [count] }));
  const keywords = (list: { keyword: string; count: number }[]) => list.map((entry) => ({ label: entry.keyword, values: [entry.count] }));
  return [
    h(
      'div',
      { class: 'cards' },
      card(
        '予約（有効）',
        reservations.total - reservations.archived,
        `ほかにアーカイブ済み ${formatCount(reservations.archived)} 件（合計 ${formatCount(reservations.total)} 件）`,
      ),
      card(
        '再入荷通知の登録（有効）',
        subscriptions.total - subscriptions.archived,
        `ほかにアーカイブ済み ${formatCount(subscriptions.archived)} 件（合計 ${formatCount(subscriptions.total)} 件）`,
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
      // Not a delivery failure: nothing was tried, because no email provider is configured.
      card(
        '送られていないメール',
        outbox.skipped,
        outbox.skipped > 0
          ? `${formatCount(outbox.skipped)} 件のメールは送信設定がないため送られていません（過去30日）`
          : 'ありません（過去30日）',
        outbox.skipped > 0,
      ),
    ),
    h(
      'div',
      { class: 'charts' },
      barChart('予約（ステータス別・アーカイブ済みを含む）', byStatus(reservations.byStatus, RESERVATION_STATUS_LABELS)),
      barChart('再入荷通知の登録（ステータス別・アーカイブ済みを含む）', byStatus(subscriptions.byStatus, SUBSCRIPTION_STATUS_LABELS)),
      barChart(
        '商品別の予約と通知待ち',
        stats.products.map((p) => ({
          label: p.name ?? context.products.get(p.productSlug)?.name ?? p.productSlug,
          values: [p.reservations, p.pendingSubscriptions],
        })),
        ['予約', '通知待ち'],
      ),
      dailyChart('日別の検索数（過去30日）', searches.perDay),
      barChart('よく検索されたキーワード（過去30日）', keywords(searches.topKeywords)),
      barChart('結果が0件だったキーワード（過去30日）', keywords(searches.topZeroResultKeywords)),
    ),
  ];
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
