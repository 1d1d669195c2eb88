import type { ShopContact } from '../shop/contact.ts';
import { shopContactHtml } from '../shop/contact-html.ts';
import { HTML_PAGE_HEADERS, htmlPage } from '../text/html-page.ts';
import { escapeHtml } from '../text/safe-text.ts';

// The short Japanese page an unsubscribe link opens, ending with who the shop is and how to reach
// it. Everything shown is escaped; it links nowhere but to write to or call the shop.

export const UNSUBSCRIBE_PAGE_HEADERS = HTML_PAGE_HEADERS;

export function unsubscribedPage(productName: string | undefined, shop: ShopContact): string {
  const what = productName === undefined ? '入荷通知' : `「${productName}」の入荷通知`;
  return page('配信を停止しました', [`${what}の配信を停止しました。`, '今後、この商品の入荷のお知らせはお送りしません。'], shop);
}

export function invalidLinkPage(shop: ShopContact): string {
  return page(
    'リンクが無効です',
    [
      'この配信停止リンクは正しくないか、すでに使えなくなっています。',
      'お手数ですが、メールに記載のリンクをもう一度そのままお開きください。配信を止められない場合は、下記までご連絡ください。',
    ],
    shop,
  );
}

function page(heading: string, paragraphs: string[], shop: ShopContact): string {
  return htmlPage(heading, paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n') + shopContactHtml(shop));
}
