import { ApiError, type Input, type Output } from '../../../client/tenpo-client.ts';
import { productName } from '../../api/products.ts';
import type { ScreenContext } from '../../screen.ts';
import { h } from '../../ui/dom.ts';
import { fromJapanInput, toJapanInput } from '../../ui/format.ts';
import { joinColleagueSave, clearedWhenTyped } from '../../ui/colleague-save.ts';
import { editedSince } from '../../ui/unsaved.ts';
import { PREORDER_FIELD_LABELS } from '../../../words/labels.ts';

type Preorder = Output<'/api/admin/preorders/list'>['preorders'][number];

/** Where the editor's typed work is held while unsaved (`context.unsaved`). */
export const EDITOR_DRAFT = 'preorder';

type Field = Exclude<keyof Input<'/api/admin/preorders/upsert'>, 'expectedUpdatedAt'>;

/** What to do about a field, said next to it: found wrong as typed, or refused by the service. */
const FIELD_FIXES: Record<Field, string> = {
  productSlug: '予約受付を始める商品を選んでください。',
  opensAt: '受付開始の日時を、年・月・日・時・分まで入れてください（空欄にするとすぐに開始）。',
  closesAt: '受付終了は、受付開始より後の日時にしてください（空欄にすると終了なし）。',
  capacity: '台数は 1〜100,000 の整数で入力してください（空欄にすると上限なし）。',
  perCustomerLimit: 'お一人様の上限は 1〜100 の整数で入力してください（空欄にすると上限なし）。',
  shipsIn: '発送予定は 100 文字までにしてください。',
  note: 'お知らせは 500 文字までにしてください。',
};

type SettingField = Exclude<Field, 'productSlug'>;

/** A campaign's settings as the form's fields hold them (a date in Japan time, an empty field for none); all empty for no campaign. */
function settingsAsTyped(p: Preorder | undefined): Record<SettingField, string> {
  return {
    opensAt: toJapanInput(p?.opensAt ?? null),
    closesAt: toJapanInput(p?.closesAt ?? null),
    capacity: String(p?.capacity ?? ''),
    perCustomerLimit: String(p?.perCustomerLimit ?? ''),
    shipsIn: p?.shipsIn ?? '',
    note: p?.note ?? '',
  };
}

/** A whole number from `min` to `max` as typed, or empty; what a number field holds that is neither (`1.5`, `e`) is wrong. */
function wholeOrEmpty(input: HTMLInputElement, max: number): boolean {
  if (input.validity.badInput) return false;
  const value = Number(input.value);
  return input.value === '' || (Number.isInteger(value) && value >= 1 && value <= max);
}

/**
 * Creates a campaign, or changes the one given; an empty field means no bound, no limit, no text.
 * Checked by the console's own rules before anything is sent (the browser's are off: its bubbles
 * are in the browser's language, over the field), each field at fault said beside it in Japanese,
 * as is each field the service refuses. What is typed is held in `context.unsaved` until saved.
 */
export function editor(
  context: ScreenContext,
  preorders: Preorder[],
  current: Preorder | undefined,
  reload: () => Promise<void>,
): HTMLElement {
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
  /** The campaign the form is made from: the one opened, then a colleague's save joined into it; undefined while new. */
  let from = current;
  const shown = settingsAsTyped(current);
  const opensAt = input('preorder-opens', 'datetime-local', shown.opensAt);
  const closesAt = input('preorder-closes', 'datetime-local', shown.closesAt);
  const capacity = input('preorder-capacity', 'number', shown.capacity, { min: 1, max: 100_000 });
  const limit = input('preorder-limit', 'number', shown.perCustomerLimit, { min: 1, max: 100 });
  const shipsIn = input('preorder-ships', 'text', shown.shipsIn, { maxlength: 100, placeholder: '2027年2月下旬' });
  const note = h('textarea', { id: 'preorder-note', rows: 2, maxlength: 500, value: shown.note });
  const settings = { opensAt, closesAt, capacity, perCustomerLimit: limit, shipsIn, note };
  clearedWhenTyped(Object.values(settings));
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
  /** The fields wrong as typed, in the form's order. */
  function typedProblems(): Field[] {
    const wrong = new Set<Field>();
    if (!product.value) wrong.add('productSlug');
    // A date half typed is no date: the browser gives an empty value and says so in badInput.
    if (opensAt.validity.badInput) wrong.add('opensAt');
    // Compared as typed: both are Japan time, and datetime-local values order as text.
    if (closesAt.validity.badInput || (opensAt.value && closesAt.value && closesAt.value <= opensAt.value)) wrong.add('closesAt');
    if (!wholeOrEmpty(capacity, 100_000)) wrong.add('capacity');
    if (!wholeOrEmpty(limit, 100)) wrong.add('perCustomerLimit');
    return (Object.keys(controls) as Field[]).filter((name) => wrong.has(name));
  }
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
      novalidate: true,
      onSubmit: async (event: Event) => {
        event.preventDefault();
        const wrong = typedProblems();
        showErrors(wrong);
        if (wrong.length > 0) return;
        const body: Input<'/api/admin/preorders/upsert'> = {
          productSlug: product.value,
          opensAt: fromJapanInput(opensAt.value),
          closesAt: fromJapanInput(closesAt.value),
          capacity: capacity.value ? Number(capacity.value) : null,
          perCustomerLimit: limit.value ? Number(limit.value) : null,
          shipsIn: shipsIn.value.trim() || null,
          note: note.value.trim() || null,
          expectedUpdatedAt: from?.updatedAt ?? null,
        };
        save.disabled = true;
        try {
          await context.api.call('/api/admin/preorders/upsert', body);
          context.unsaved.release(EDITOR_DRAFT);
          context.announce(`「${productName(context.products, body.productSlug)}」の予約受付を保存しました。`, 'success');
          await reload();
        } catch (error) {
          save.disabled = false;
          if (error instanceof ApiError && error.code === 'changed_by_someone_else') return void (await colleagueSaved(body.productSlug));
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
  /**
   * A colleague saved (or made, or deleted) the campaign first: theirs becomes the one the form is
   * made from, joined with what was typed (ui/colleague-save.ts), so the next save keeps both.
   */
  async function colleagueSaved(productSlug: string): Promise<void> {
    const theirs = (await context.api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === productSlug);
    const name = productName(context.products, productSlug);
    const base = settingsAsTyped(from);
    from = theirs;
    context.unsaved.changed();
    if (!theirs)
      return context.announce(
        `他の担当者が「${name}」の予約受付を削除していました。まだ保存されていません。もう一度保存すると、入力した内容で新しく作ります。`,
        'error',
      );
    const said = joinColleagueSave<SettingField>({
      what: `「${name}」の予約受付`,
      labels: PREORDER_FIELD_LABELS,
      controls: settings,
      base,
      mine: Object.fromEntries(Object.entries(settings).map(([field, control]) => [field, control.value])) as Record<SettingField, string>,
      theirs: settingsAsTyped(theirs),
      shown: (field, value) => (field === 'opensAt' || field === 'closesAt' ? value.replace('T', ' ') : value),
    });
    context.announce(said, 'error');
    // The list below shows the campaign as saved now; this editor, holding typed work, stays as it is.
    await reload();
  }
  /** Back to the form that creates a campaign, asking first when what was typed would be lost. */
  async function stopEditing(): Promise<void> {
    if (await context.unsaved.mayDiscard({ asked: '編集を閉じますか？', button: '閉じる' }, [EDITOR_DRAFT])) await reload();
  }
  return form;
}
