import type { Output } from '../../../client/tenpo-client.ts';
import { productName } from '../../api/products.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { h, replace } from '../../ui/dom.ts';
import { formatCount, formatDateTime } from '../../ui/format.ts';
import { EDITOR_DRAFT, editor } from './editor.ts';

type Preorder = Output<'/api/admin/preorders/list'>['preorders'][number];

export const PREORDER_STATE_LABELS: Record<Preorder['state'], string> = {
  upcoming: '受付前',
  open: '受付中',
  soldOut: '満席',
  closed: '受付終了',
};

/**
 * 予約受付: each product's preorder campaign with its state and seats, and an editor. Dates are
 * entered and shown in Japan time, whatever the device's zone, and sent with their +09:00 offset.
 */
export function openScreen(context: ScreenContext): Screen {
  return {
    show(container) {
      const list = h('div');
      const editorSlot = h('div');
      replace(
        container,
        h('div', { class: 'view-head' }, h('h1', {}, '予約受付'), h('button', { type: 'button', onClick: () => void load() }, '更新')),
        editorSlot,
        list,
      );

      async function load(): Promise<void> {
        list.setAttribute('aria-busy', 'true');
        try {
          const { preorders } = await context.api.call('/api/admin/preorders/list', {});
          // An editor holding unsaved work stays as it is.
          if (!context.unsaved.isDirty(EDITOR_DRAFT)) replace(editorSlot, editor(context, preorders, undefined, load));
          replace(
            list,
            preorders.length > 0
              ? campaignTable(preorders, context, (preorder) => void edit(preorders, preorder), load)
              : placeholder('予約受付中の商品はありません。'),
          );
        } catch (error) {
          context.fail(error);
          replace(
            list,
            placeholder('予約受付を読み込めませんでした。', h('button', { type: 'button', onClick: () => void load() }, '再試行')),
          );
        } finally {
          list.removeAttribute('aria-busy');
        }
      }
      /**
       * Opens the editor on a campaign, asking first when the one open holds unsaved work, where staff
       * see it: the list may be scrolled far below it.
       */
      async function edit(preorders: Preorder[], preorder: Preorder): Promise<void> {
        if (!(await context.unsaved.mayDiscard({ asked: '別の予約受付を編集しますか？', button: '編集する' }, [EDITOR_DRAFT]))) return;
        const form = editor(context, preorders, preorder, load);
        replace(editorSlot, form);
        form.scrollIntoView({ block: 'start' });
        form.querySelector<HTMLElement>('input:not(:disabled), select:not(:disabled), textarea')?.focus({ preventScroll: true });
      }
      replace(list, placeholder('読み込み中…'));
      void load();
    },
  };
}

function campaignTable(
  preorders: Preorder[],
  context: ScreenContext,
  edit: (preorder: Preorder) => void,
  reload: () => Promise<void>,
): HTMLTableElement {
  const cell = (label: string, ...content: (Node | string)[]) => h('td', { 'data-label': label }, ...content);
  return h(
    'table',
    { class: 'records preorders' },
    h('thead', {}, h('tr', {}, ...['商品', '状態', '予約数', '受付期間', 'お一人様', '発送予定', ''].map((label) => h('th', {}, label)))),
    h(
      'tbody',
      {},
      ...preorders.map((p) =>
        h(
          'tr',
          { 'data-product': p.productSlug },
          cell('商品', productName(context.products, p.productSlug)),
          cell('状態', h('span', { class: `state ${p.state}` }, PREORDER_STATE_LABELS[p.state])),
          cell('予約数', seatBar(p)),
          cell('受付期間', `${formatDateTime(p.opensAt)} 〜 ${formatDateTime(p.closesAt)}`),
          cell('お一人様', p.perCustomerLimit === null ? '制限なし' : `${p.perCustomerLimit} 台まで`),
          cell('発送予定', p.shipsIn ?? '—'),
          cell(
            '',
            h(
              'div',
              { class: 'actions' },
              h('button', { type: 'button', onClick: () => edit(p) }, '編集'),
              p.state === 'closed'
                ? null
                : h('button', { type: 'button', class: 'danger', onClick: () => void close(p, context, reload) }, '受付を終了'),
              h('button', { type: 'button', class: 'danger', onClick: () => void remove(p, context, reload) }, '削除'),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Reserved against capacity: a bar when there is a capacity, the count alone when there is none. */
function seatBar(p: Preorder): HTMLElement {
  if (p.capacity === null) return h('span', { class: 'seats' }, `${formatCount(p.reserved)} 台（上限なし）`);
  const fill = h('div', { class: 'seat-fill' });
  // Through the CSSOM: the console's Content-Security-Policy refuses style attributes.
  fill.style.width = `${(Math.min(1, p.reserved / p.capacity) * 100).toFixed(1)}%`;
  return h(
    'div',
    { class: 'seats', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': p.capacity, 'aria-valuenow': p.reserved, 'aria-label': '予約数' },
    h('div', { class: 'seat-bar' }, fill),
    h('span', {}, `${formatCount(p.reserved)} / ${formatCount(p.capacity)} 台（残り ${formatCount(p.remaining ?? 0)}）`),
  );
}

/**
 * Stops taking reservations now (its end set to now), its seats and limits kept for what was taken;
 * one not open yet ends without opening. A full one is offered it too: a cancellation gives its seat
 * back and would open it again (docs/preorders.md), which a closed one never does.
 */
async function close(p: Preorder, context: ScreenContext, reload: () => Promise<void>): Promise<void> {
  const name = productName(context.products, p.productSlug);
  // One not open yet ends without opening: its start is cleared, since an end before it is refused.
  const upcoming = p.state === 'upcoming';
  const message = {
    upcoming: `「${name}」の予約受付を、開始しないまま今すぐ終了します。受付開始の日時は消え、予約は受け付けなくなります。`,
    open: `「${name}」の予約受付を今すぐ終了します。受け付けた予約はそのまま残り、新しい予約は受け付けなくなります。`,
    soldOut: `「${name}」は満席です。受付を終了すると、キャンセルで空きが出ても新しい予約は受け付けません（終了しなければ、空いた台数の分だけ再び受け付けます）。受け付けた予約はそのまま残ります。`,
    closed: '',
  }[p.state];
  if (!(await confirmDialog({ title: '予約受付を終了', message, confirm: '受付を終了する', danger: true }))) return;
  try {
    await context.api.call('/api/admin/preorders/upsert', {
      productSlug: p.productSlug,
      closesAt: new Date().toISOString(),
      ...(upcoming ? { opensAt: null } : {}),
    });
    context.announce(`「${name}」の予約受付を終了しました。`, 'success');
    await reload();
  } catch (error) {
    context.fail(error);
  }
}

/**
 * Deletes the campaign, saying what that lifts: the product then takes reservations without any
 * limit. While reservations hold its seats the service refuses unless told to go ahead (force),
 * so the dialog says how many there are and that they stay.
 */
async function remove(p: Preorder, context: ScreenContext, reload: () => Promise<void>): Promise<void> {
  const name = productName(context.products, p.productSlug);
  const lifted =
    '削除すると台数・受付期間・お一人様の上限がすべてなくなり、この商品は制限なく予約を受け付けるようになります。受付をやめるだけなら「受付を終了」を使ってください。';
  const message =
    p.reserved > 0
      ? `「${name}」の予約受付には有効な予約が ${formatCount(p.reserved)} 件あります（予約は残ります）。${lifted}`
      : `「${name}」の予約受付を削除します。${lifted}`;
  if (!(await confirmDialog({ title: '予約受付の削除', message, confirm: '削除する', danger: true }))) return;
  try {
    await context.api.call('/api/admin/preorders/delete', { productSlug: p.productSlug, force: p.reserved > 0 });
    context.announce(`「${name}」の予約受付を削除しました。`, 'success');
    await reload();
  } catch (error) {
    context.fail(error);
  }
}
