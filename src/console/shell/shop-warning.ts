import type { Output } from '../../client/tenpo-client.ts';
import { missingShopFields } from '../../shop/contact.ts';
import { SHOP_FIELD_LABELS } from '../../words/labels.ts';
import { h, replace } from '../ui/dom.ts';

// The warning every screen shows while the shop has not said who it is: without its name, contact
// address and address, its emails and the customer's pages cannot say who sends them or how to
// reach it (and a restock email, which is advertising, must). It links an owner to 店舗情報; a
// staff account, which may not change the settings, is asked to tell an owner.

type Shop = Output<'/api/admin/shop/get'>['shop'];

/** The warning line, and how to say the settings changed (it hides once the required ones are set). */
export function shopWarning(options: { mayEdit: boolean }): { element: HTMLElement; show(shop: Shop): void } {
  const element = h('p', { class: 'shop-warning', role: 'status', hidden: true });
  return {
    element,
    show(shop) {
      const missing = missingShopFields(shop);
      element.hidden = missing.length === 0;
      replace(
        element,
        `店舗情報の${missing.map((field) => SHOP_FIELD_LABELS[field]).join('・')}が未設定です。お客様へのメールや予約ページに、ショップの名前と連絡先が表示されません。`,
        options.mayEdit ? h('a', { href: '#/shop' }, '店舗情報を設定する') : 'オーナーに設定を依頼してください。',
      );
    },
  };
}
