import { ApiError, type Input, type Output } from '../../../client/tenpo-client.ts';
import { h, replace } from '../../ui/dom.ts';
import { formatCount, formatDateTime, fromJapanInput, toJapanInput } from '../../ui/format.ts';
import { productName } from '../../api/products.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { editedSince } from '../../ui/unsaved.ts';

type Preorder = Output<'/api/admin/preorders/list'>['preorders'][number];

export const PREORDER_STATE_LABELS: Record<Preorder['state'], string> = {
  upcoming: '受付前',
  open: '受付中',
  soldOut: '満席',
  closed: '受付終了',
};

/** Where the editor's typed work is held while unsaved (`context.unsaved`). */
const EDITOR_DRAFT = 'preorder';

type Field = keyof Input<'/api/admin/preorders/upsert'>;

/** What to do about a field the service refused, said next to it. */
const FIELD_FIXES: Record<Field, string> = {
  productSlug: '商品を選び直してください。',
  opensAt: '受付開始の日時を入れ直してください。',
  closesAt: '受付終了は、受付開始より後の日時にしてください（空欄にすると終了なし）。',
  capacity: '台数は 1〜100,000 の整数で入力してください（空欄にすると上限なし）。',
  perCustomerLimit: 'お一人様の上限は 1〜100 の整数で入力してください（空欄にすると上限なし）。',
  shipsIn: '発送予定は 100 文字までにしてください。',
  note: 'お知らせは 500 文字までにしてください。',
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
              p.state === 'open' || p.state === 'upcoming'
                ? h('button', { type: 'button', onClick: () => void close(p, context, reload) }, '受付を終了')
                : null,
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
 * one not open yet ends without opening.
 */
async function close(p: Preorder, context: ScreenContext, reload: () => Promise<void>): Promise<void> {
  const name = productName(context.products, p.productSlug);
  // One not open yet ends without opening: its start is cleared, since an end before it is refused.
  const upcoming = p.state === 'upcoming';
  const question = upcoming
    ? `「${name}」の予約受付を開始しないまま今すぐ終了しますか？ 受付開始の日時は消え、予約は受け付けなくなります。`
    : `「${name}」の予約受付を今すぐ終了しますか？ 受け付けた予約はそのまま残り、新しい予約は受け付けなくなります。`;
  if (!confirm(question)) return;
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
 * limit. While reservations hold its seats the service refuses unless told to go ahead, so staff
 * are told so and asked a second time.
 */
async function remove(p: Preorder, context: ScreenContext, reload: () => Promise<void>): Promise<void> {
  const name = productName(context.products, p.productSlug);
  const lifted =
    '削除すると台数・受付期間・お一人様の上限がすべてなくなり、この商品は制限なく予約を受け付けるようになります。受付をやめるだけなら「受付を終了」を使ってください。';
  const question =
    p.reserved > 0
      ? `「${name}」の予約受付には有効な予約が ${formatCount(p.reserved)} 件あります（予約は残ります）。${lifted}\n\nそれでも削除しますか？`
      : `「${name}」の予約受付を削除しますか？ ${lifted}`;
  if (!confirm(question)) return;
  try {
    await context.api.call('/api/admin/preorders/delete', { productSlug: p.productSlug, force: p.reserved > 0 });
    context.announce(`「${name}」の予約受付を削除しました。`, 'success');
    await reload();
  } catch (error) {
    context.fail(error);
  }
}

/**
 * Creates a campaign, or changes the one given; an empty field means no bound, no limit, no text.
 * An end before the start is said at 受付終了 before anything is sent, and so is each field the
 * service refuses. What is typed is held in `context.unsaved` until saved.
 */
function editor(context: ScreenContext, preorders: Preorder[], current: Preorder | undefined, reload: () => Promise<void>): HTMLElement {
  const taken = new Set(preorders.map((p) => p.productSlug));
  const product = h(
    'select',
    { id: 'preorder-product', disabled: current !== undefined },
    ...(current ? [] : [h('option', { value: '' }, '商品を選択')]),
    ...[...context.products.values()]
      .filter((p) => (current ? p.slug === current.productSlug : !taken.has(p.slug)))
      .map((p) => h('option', { value: p.slug }, p.name)),
  );
  const input = (id: string, type: string, value: string, extra: Record<string, string | number> = {}) =>
    h('input', { id, type, value, ...extra });
  const opensAt = input('preorder-opens', 'datetime-local', toJapanInput(current?.opensAt ?? null));
  const closesAt = input('preorder-closes', 'datetime-local', toJapanInput(current?.closesAt ?? null));
  const capacity = input('preorder-capacity', 'number', String(current?.capacity ?? ''), { min: 1, max: 100_000 });
  const limit = input('preorder-limit', 'number', String(current?.perCustomerLimit ?? ''), { min: 1, max: 100 });
  const shipsIn = input('preorder-ships', 'text', current?.shipsIn ?? '', { maxlength: 100, placeholder: '2027年2月下旬' });
  const note = h('textarea', { id: 'preorder-note', rows: 2, maxlength: 500, value: current?.note ?? '' });
  const controls: Record<Field, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement> = {
    productSlug: product,
    opensAt,
    closesAt,
    capacity,
    perCustomerLimit: limit,
    shipsIn,
    note,
  };
  const errors = new Map<HTMLElement, HTMLElement>();
  const field = (label: string, control: HTMLElement, hint?: string) => {
    const error = h('p', { class: 'field-error', id: `${control.id}-error`, hidden: true });
    errors.set(control, error);
    control.setAttribute('aria-describedby', error.id);
    return h('span', { class: 'field' }, h('label', { for: control.id }, label), control, hint ? h('small', {}, hint) : null, error);
  };
  /** Says at each field what to fix (none: every field is fine), the first of them focused. */
  function showErrors(wrong: Field[]): void {
    for (const [name, control] of Object.entries(controls)) {
      const error = errors.get(control)!;
      error.hidden = !wrong.includes(name as Field);
      error.textContent = error.hidden ? '' : FIELD_FIXES[name as Field];
      control.setAttribute('aria-invalid', String(!error.hidden));
    }
    const first = Object.keys(controls).find((name) => wrong.includes(name as Field));
    if (first) controls[first as Field].focus();
  }
  context.unsaved.hold(EDITOR_DRAFT, {
    what: current ? `「${productName(context.products, current.productSlug)}」の予約受付` : '作成中の予約受付',
    isDirty: editedSince(Object.values(controls)),
  });

  const save: HTMLButtonElement = h('button', { type: 'submit', class: 'primary' }, current ? '変更を保存' : '予約受付を作成');
  const form = h(
    'form',
    {
      class: 'panel preorder-editor',
      'aria-labelledby': 'preorder-heading',
      onSubmit: async (event: Event) => {
        event.preventDefault();
        if (!product.value) return context.announce('予約受付を始める商品を選択してください。', 'error');
        // Compared as typed: both are Japan time, and datetime-local values order as text.
        if (opensAt.value && closesAt.value && closesAt.value <= opensAt.value) return showErrors(['closesAt']);
        showErrors([]);
        const body: Input<'/api/admin/preorders/upsert'> = {
          productSlug: product.value,
          opensAt: fromJapanInput(opensAt.value),
          closesAt: fromJapanInput(closesAt.value),
          capacity: capacity.value ? Number(capacity.value) : null,
          perCustomerLimit: limit.value ? Number(limit.value) : null,
          shipsIn: shipsIn.value.trim() || null,
          note: note.value.trim() || null,
        };
        save.disabled = true;
        try {
          await context.api.call('/api/admin/preorders/upsert', body);
          context.unsaved.release(EDITOR_DRAFT);
          context.announce(`「${productName(context.products, body.productSlug)}」の予約受付を保存しました。`, 'success');
          await reload();
        } catch (error) {
          save.disabled = false;
          context.fail(error);
          if (error instanceof ApiError && error.code === 'invalid_parameters')
            showErrors(error.details.flatMap((detail) => (Object.hasOwn(controls, detail.field) ? [detail.field as Field] : [])));
        }
      },
    },
    h(
      'h2',
      { id: 'preorder-heading' },
      current ? `「${productName(context.products, current.productSlug)}」の予約受付を編集` : '予約受付を作成',
    ),
    h(
      'div',
      { class: 'grid' },
      field('商品', product),
      field('受付開始（日本時間）', opensAt, '空欄: すぐに開始'),
      field('受付終了（日本時間）', closesAt, '空欄: 終了なし'),
      field('台数', capacity, '空欄: 上限なし'),
      field('お一人様の上限', limit, '空欄: 上限なし'),
      field('発送予定', shipsIn),
      field('お知らせ', note),
    ),
    h('div', { class: 'actions' }, current ? h('button', { type: 'button', onClick: () => void stopEditing() }, 'キャンセル') : null, save),
  );
  /** Back to the form that creates a campaign, asking first when what was typed would be lost. */
  async function stopEditing(): Promise<void> {
    if (await context.unsaved.mayDiscard({ asked: '編集を閉じますか？', button: '閉じる' }, [EDITOR_DRAFT])) await reload();
  }
  return form;
}
