import { escapeHtml } from '../text/safe-text.ts';

// The short Japanese page an unsubscribe link opens. Everything shown is escaped; the page loads
// nothing and links nowhere, so the token in its URL cannot leak through a Referer.

export const UNSUBSCRIBE_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
};

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
  return [
    '<!doctype html>',
    '<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(heading)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.7; color: #222; max-width: 36em; margin: 3em auto; padding: 0 1em;">',
    `<h1 style="font-size: 1.3em;">${escapeHtml(heading)}</h1>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    '</body></html>',
    '',
  ].join('\n');
}
