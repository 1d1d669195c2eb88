import { h, replace } from '../../ui/dom.ts';
import { formatCount } from '../../ui/format.ts';
import { productName } from '../../api/products.ts';
import type { ScreenContext } from '../../screen.ts';

/**
 * "Back in stock": pick a product, see how many addresses wait for it, confirm, send. The count is
 * what the send would notify now (the product's active pending subscriptions); the answer says how
 * many were notified in the end, which differs only if someone signed up or was changed meanwhile.
 */
export function restockSender(context: ScreenContext, reload: () => void): HTMLElement {
  const product = h('select', { id: 'restock-product' }, h('option', { value: '' }, '商品を選択'));
  /** The picker's options, each saying how many wait for that product (the active pending subscriptions). */
  async function fillPicker(): Promise<void> {
    const waiting = new Map<string, number>();
    for (const s of (await context.api.call('/api/admin-notify-list', { status: 'pending' })).subscriptions)
      waiting.set(s.productSlug, (waiting.get(s.productSlug) ?? 0) + 1);
    const chosen = product.value;
    replace(
      product,
      h('option', { value: '' }, '商品を選択'),
      ...[...context.products.values()].map((p) =>
        h('option', { value: p.slug, selected: p.slug === chosen }, `${p.name}（通知待ち ${formatCount(waiting.get(p.slug) ?? 0)} 件）`),
      ),
    );
  }
  void fillPicker().catch((error: unknown) => context.fail(error));
  const button: HTMLButtonElement = h('button', { type: 'button', class: 'primary', onClick: () => void prepare() }, '再入荷通知を送信…');

  async function prepare(): Promise<void> {
    const slug = product.value;
    if (!slug) return context.announce('通知する商品を選択してください。', 'error');
    button.disabled = true;
    button.textContent = '件数を確認中…';
    try {
      const waiting = (await context.api.call('/api/admin-notify-list', { status: 'pending', productSlug: slug })).subscriptions.length;
      confirmSend(slug, waiting);
    } catch (error) {
      context.fail(error);
    } finally {
      button.disabled = false;
      button.textContent = '再入荷通知を送信…';
    }
  }

  function confirmSend(slug: string, waiting: number): void {
    const name = productName(context.products, slug);
    const close = () => dialog.close();
    const send: HTMLButtonElement = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        onClick: async () => {
          send.disabled = true;
          send.textContent = '送信中…';
          try {
            const { notifiedCount } = await context.api.call('/api/admin/notify/send', { productSlug: slug });
            close();
            context.announce(`「${name}」の再入荷通知を ${formatCount(notifiedCount)} 件送信しました。`, 'success');
            reload();
            void fillPicker().catch((error: unknown) => context.fail(error));
          } catch (error) {
            close();
            context.fail(error);
          }
        },
      },
      `${formatCount(waiting)} 件に送信する`,
    );
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'restock-title', onClose: () => dialog.remove() },
      h('h2', { id: 'restock-title' }, '再入荷通知の送信'),
      waiting > 0
        ? h(
            'p',
            { class: 'confirm-count' },
            `「${name}」の再入荷通知を`,
            h('strong', {}, `${formatCount(waiting)} 件`),
            'のメールアドレスに送信します。送信した登録は「通知済み」になります。',
          )
        : h('p', { class: 'confirm-count' }, `「${name}」に通知待ちの登録はありません。`),
      waiting > 0 &&
        h(
          'p',
          { class: 'warning' },
          '送信すると、公開チャットにも「再入荷しました」のお知らせが投稿されます（お客様の情報は含まれません）。',
        ),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', onClick: close }, waiting > 0 ? 'キャンセル' : '閉じる'),
        waiting > 0 && send,
      ),
    );
    document.body.append(dialog);
    dialog.showModal();
  }

  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'restock-heading' },
    h('h2', { id: 'restock-heading' }, '再入荷のお知らせ'),
    h('div', { class: 'row' }, h('label', { for: 'restock-product' }, '商品'), product, button),
  );
}
