import { h, replace } from '../../ui/dom.ts';
import { formatCount } from '../../ui/format.ts';
import { productName } from '../../api/products.ts';
import type { ScreenContext } from '../../screen.ts';

/**
 * "Back in stock": pick a product (those most waited for first), see how many addresses wait for
 * it, choose to tell all of them or the oldest few (a wave: 5 units for 300 waiting), confirm with
 * the count of emails stated, send. The count is what the send would notify now (the product's
 * active pending subscriptions); the answer says how many were notified and how many still wait,
 * which differs only if someone signed up or was changed meanwhile.
 */
export function restockSender(context: ScreenContext, reload: () => void): HTMLElement {
  const product = h('select', { id: 'restock-product' }, h('option', { value: '' }, '商品を選択'));
  /** The picker's options, each saying how many wait for that product, the most waited for first and those nobody waits for last. */
  async function fillPicker(): Promise<void> {
    const waiting = new Map<string, number>();
    for (const s of (await context.api.call('/api/admin-notify-list', { status: 'pending' })).subscriptions)
      waiting.set(s.productSlug, (waiting.get(s.productSlug) ?? 0) + 1);
    const chosen = product.value;
    const products = [...context.products.values()];
    // A stable sort: equal counts keep the catalog's order.
    products.sort((a, b) => (waiting.get(b.slug) ?? 0) - (waiting.get(a.slug) ?? 0));
    replace(
      product,
      h('option', { value: '' }, '商品を選択'),
      ...products.map((p) =>
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
    const all = h('input', { type: 'radio', name: 'restock-how-many', id: 'restock-all', checked: true });
    const some = h('input', { type: 'radio', name: 'restock-how-many', id: 'restock-some' });
    const count = h('input', {
      type: 'number',
      id: 'restock-limit',
      min: 1,
      max: waiting,
      value: Math.min(waiting, 5),
      'aria-label': '送信する件数',
    });
    const stated = h('p', { class: 'confirm-count' });
    const publicNote = h('p', {});
    const send: HTMLButtonElement = h('button', { type: 'button', class: 'primary', onClick: () => void submit() });

    /** How many this send would email: everyone, or the number typed (1 to everyone). */
    const chosen = (): number | undefined => {
      if (all.checked) return waiting;
      const n = Number(count.value);
      return Number.isInteger(n) && n >= 1 ? Math.min(n, waiting) : undefined;
    };
    function state(): void {
      count.disabled = all.checked;
      const n = chosen();
      send.disabled = n === undefined;
      if (n === undefined) {
        replace(stated, '送信する件数を1以上の整数で入力してください。');
        send.textContent = '送信する';
        return;
      }
      const left = waiting - n;
      replace(
        stated,
        `「${name}」の再入荷通知を`,
        h('strong', {}, `${formatCount(n)} 件`),
        `のメールアドレスに送信します${n < waiting ? '（登録の早い順）' : ''}。送信した登録は「通知済み」になります。`,
        left > 0 ? `残りの ${formatCount(left)} 件は通知待ちのままです。` : '',
      );
      publicNote.className = left > 0 ? 'hint' : 'warning';
      publicNote.textContent =
        left > 0
          ? '公開チャットへの「再入荷しました」のお知らせは、通知待ちの方がいなくなる送信のときに投稿されます。'
          : '送信すると、公開チャットにも「再入荷しました」のお知らせが投稿されます（お客様の情報は含まれません）。';
      send.textContent = `${formatCount(n)} 件に送信する`;
    }
    for (const input of [all, some, count]) input.addEventListener('input', state);

    async function submit(): Promise<void> {
      const n = chosen();
      if (n === undefined) return;
      send.disabled = true;
      send.textContent = '送信中…';
      try {
        const answer = await context.api.call('/api/admin/notify/send', { productSlug: slug, ...(n < waiting ? { limit: n } : {}) });
        close();
        const left = answer.remaining > 0 ? `通知待ちは残り ${formatCount(answer.remaining)} 件です。` : '';
        context.announce(`「${name}」の再入荷通知を ${formatCount(answer.notifiedCount)} 件送信しました。${left}`, 'success');
        reload();
        void fillPicker().catch((error: unknown) => context.fail(error));
      } catch (error) {
        close();
        context.fail(error);
      }
    }

    const unpriced = context.products.get(slug)?.price === null;
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'restock-title', class: 'restock-send', onClose: () => dialog.remove() },
      h('h2', { id: 'restock-title' }, '再入荷通知の送信'),
      waiting > 0
        ? h(
            'fieldset',
            { class: 'how-many' },
            h('legend', {}, `通知待ち ${formatCount(waiting)} 件のうち`),
            h('label', { for: 'restock-all' }, all, `全員（${formatCount(waiting)} 件）に送る`),
            h('label', { for: 'restock-some' }, some, '登録の早い順に', h('span', { class: 'count-field' }, count, '件だけ送る')),
          )
        : null,
      waiting > 0 ? stated : h('p', { class: 'confirm-count' }, `「${name}」に通知待ちの登録はありません。`),
      waiting > 0 && unpriced
        ? h('p', { class: 'warning no-price' }, 'この商品には価格が設定されていません。メールの価格は「価格未定」と表示されます。')
        : null,
      waiting > 0 ? publicNote : null,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', onClick: close }, waiting > 0 ? 'キャンセル' : '閉じる'),
        waiting > 0 && send,
      ),
    );
    if (waiting > 0) state();
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
