import { ApiError, type Output } from '../../../client/tenpo-client.ts';
import { joinColleagueSave } from '../../ui/colleague-save.ts';
import { errorMessage } from '../../api/errors.ts';
import { missingShopFields, shopContactLines, type ShopContact } from '../../../shop/contact.ts';
import { h, replace } from '../../ui/dom.ts';
import { formatDateTime } from '../../ui/format.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { SHOP_FIELD_LABELS } from '../../../words/labels.ts';

type Shop = Output<'/api/admin/shop/get'>['shop'];

const FIELDS = ['name', 'contactEmail', 'phone', 'address', 'hours'] as const;

const HINTS: Record<(typeof FIELDS)[number], string> = {
  name: '100文字まで',
  contactEmail: 'お客様がメールに返信すると、ここに届きます',
  phone: '数字、空白、+ - ( ) で30文字まで',
  address: '改行できます。300文字まで',
  hours: '200文字まで',
};

/**
 * 店舗情報: the shop's own name and contact, which end every customer email (the shopSignature
 * placeholder) and the customer's pages. Saved with the `updatedAt` it was read with: a colleague's
 * save in between is not overwritten; their changes join the typed text, and a field both changed is named.
 * Leaving with unsaved text asks first (`context.unsaved`). An owner's screen.
 */
export function openScreen(context: ScreenContext): Screen {
  let saved: Shop | undefined;
  const inputs = {
    name: h('input', { id: 'shop-name', type: 'text', maxlength: 100, autocomplete: 'organization' }),
    contactEmail: h('input', { id: 'shop-contactEmail', type: 'email', maxlength: 254, autocomplete: 'email' }),
    phone: h('input', { id: 'shop-phone', type: 'tel', maxlength: 30, autocomplete: 'tel' }),
    address: h('textarea', { id: 'shop-address', rows: 3, maxlength: 300, autocomplete: 'street-address' }),
    hours: h('input', { id: 'shop-hours', type: 'text', maxlength: 200, placeholder: '11:00〜19:00（水曜定休）' }),
  };
  const typed = (): ShopContact => ({
    name: inputs.name.value.trim(),
    contactEmail: inputs.contactEmail.value.trim(),
    phone: inputs.phone.value.trim(),
    address: inputs.address.value
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('\n'),
    hours: inputs.hours.value.trim(),
  });
  const isDirty = () => saved !== undefined && FIELDS.some((field) => typed()[field] !== saved![field]);
  context.unsaved.hold('shop', { what: '店舗情報', isDirty });

  return {
    show(container) {
      const note = h('p', { class: 'page-note', hidden: true });
      const signature = h('pre', { class: 'signature', 'aria-live': 'polite' });
      const missing = h('p', { class: 'warning', hidden: true });
      const updated = h('p', { class: 'muted' });
      const save: HTMLButtonElement = h('button', { type: 'submit', class: 'primary' }, '保存');
      const say = (text: string, tone: 'success' | 'error') => {
        note.textContent = text;
        note.className = `page-note ${tone}`;
        note.setAttribute('role', tone === 'error' ? 'alert' : 'status');
        note.hidden = false;
      };

      /** The signature as emails will end, and what is still missing, from the fields as typed. */
      function preview(): void {
        const lines = shopContactLines(typed());
        signature.textContent = lines.length > 0 ? lines.join('\n') : '（署名なし: まだ何も設定されていません）';
        const unset = missingShopFields(typed());
        missing.hidden = unset.length === 0;
        missing.textContent = `${unset.map((field) => SHOP_FIELD_LABELS[field]).join('・')}が未設定です。お客様へのメールと予約ページには、店名・連絡先メールアドレス・所在地を載せてください（再入荷のお知らせは広告メールのため、送信者の名称・住所・連絡先の表示が必要です）。`;
      }

      function fill(shop: Shop): void {
        saved = shop;
        for (const field of FIELDS) inputs[field].value = shop[field];
        updated.textContent = shop.updatedAt ? `最終保存: ${formatDateTime(shop.updatedAt)}` : 'まだ保存されていません。';
        preview();
        context.unsaved.changed();
      }

      async function submit(event: Event): Promise<void> {
        event.preventDefault();
        if (!saved) return;
        save.disabled = true;
        try {
          const { shop } = await context.api.call('/api/admin/shop/update', { ...typed(), expectedUpdatedAt: saved.updatedAt });
          fill(shop);
          context.shopChanged(shop);
          say('店舗情報を保存しました。これから送るメールと予約ページに反映されます。', 'success');
        } catch (error) {
          if (error instanceof ApiError && error.code === 'changed_by_someone_else') return void (await colleagueSaved());
          if (error instanceof ApiError && error.status === 401) return context.fail(error);
          say(errorMessage(error), 'error');
        } finally {
          save.disabled = false;
        }
      }

      /** A colleague saved first: their save is joined with what was typed (ui/colleague-save.ts), and the next save keeps both. */
      async function colleagueSaved(): Promise<void> {
        const { shop } = await context.api.call('/api/admin/shop/get', {});
        const [base, mine] = [saved!, typed()];
        saved = shop;
        context.shopChanged(shop);
        updated.textContent = shop.updatedAt ? `最終保存: ${formatDateTime(shop.updatedAt)}` : '';
        const said = joinColleagueSave<(typeof FIELDS)[number]>({
          what: '店舗情報',
          labels: SHOP_FIELD_LABELS,
          controls: inputs,
          base,
          mine,
          theirs: shop,
        });
        preview();
        context.unsaved.changed();
        say(said, 'error');
      }

      const field = (key: (typeof FIELDS)[number]) =>
        h(
          'span',
          { class: `field ${key}` },
          h('label', { for: inputs[key].id }, SHOP_FIELD_LABELS[key]),
          inputs[key],
          h('small', {}, HINTS[key]),
        );
      for (const input of Object.values(inputs))
        input.addEventListener('input', () => {
          input.removeAttribute('aria-invalid');
          preview();
        });

      const form = h(
        'form',
        // The service checks each field and the console says it in Japanese: no browser bubble in the browser's language.
        {
          class: 'panel shop-settings',
          'aria-labelledby': 'shop-heading',
          novalidate: true,
          onSubmit: (event: Event) => void submit(event),
        },
        h('h2', { id: 'shop-heading' }, 'ショップの名前と連絡先'),
        h('div', { class: 'grid' }, ...FIELDS.map(field)),
        missing,
        h('div', { class: 'actions' }, updated, save),
      );
      const signaturePanel = h(
        'section',
        { class: 'panel shop-signature', 'aria-labelledby': 'signature-heading' },
        h('h2', { id: 'signature-heading' }, 'メールの署名'),
        h(
          'p',
          { class: 'hint' },
          'すべてのお客様へのメールの最後（{{shopSignature}}）に、この内容が入ります。未設定の項目の行は省かれます。',
        ),
        signature,
      );
      replace(container, h('div', { class: 'view-head' }, h('h1', {}, '店舗情報')), note, placeholder('読み込み中…'));

      void (async () => {
        try {
          fill((await context.api.call('/api/admin/shop/get', {})).shop);
          replace(container, h('div', { class: 'view-head' }, h('h1', {}, '店舗情報')), note, form, signaturePanel);
        } catch (error) {
          context.fail(error);
          replace(container, h('div', { class: 'view-head' }, h('h1', {}, '店舗情報')), placeholder('店舗情報を読み込めませんでした。'));
        }
      })();
    },
  };
}
