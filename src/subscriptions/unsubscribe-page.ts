import { HTML_PAGE_HEADERS, htmlPage } from '../text/html-page.ts';
import { escapeHtml } from '../text/safe-text.ts';

// The short Japanese page an unsubscribe link opens. Everything shown is escaped; it links nowhere.

export const UNSUBSCRIBE_PAGE_HEADERS = HTML_PAGE_HEADERS;

export function unsubscribedPage(productName: string | undefined): string {
  const what = productName === undefined ? '入荷通知' : `「${productName}」の入荷通知`;
  return page('配信を停止しました', [`${what}の配信を停止しました。`, '今後、この商品の入荷のお知らせはお送りしません。']);
}

export function invalidLinkPage(): string {
  return page('リンクが無効です', [
    'この配信停止リンクは正しくないか、すでに使えなくなっています。',
    'お手数ですが、メールに記載のリンクをもう一度そのままお開きください。',
  ]);
}

function page(heading: string, paragraphs: string[]): string {
  return htmlPage(heading, paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n'));
}
