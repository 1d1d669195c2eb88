import type { EmailContent } from '../message.ts';
import { escapeHtml, singleLine } from '../../text/safe-text.ts';

/**
 * The one shape every customer email has, rendered to both text and HTML from the same parts, so
 * the two always say the same thing and escaping happens here and nowhere else. Values may hold
 * customer input: in HTML they are escaped, in text they are kept to one line.
 */
export interface EmailLayout {
  subject: string;
  /** The addressee's name, shown as "<name> 様"; omitted → no greeting line. */
  addressee?: string;
  paragraphs: string[];
  /** The one thing to do next (open the product page), shown as a link after the paragraphs. */
  action?: { label: string; url: string };
  details: { label: string; value: string }[];
  sections: { heading: string; items: string[] }[];
  footer: string;
  /** A link shown under the footer (unsubscribe). */
  link?: { label: string; url: string };
  headers?: Record<string, string>;
}

export function renderEmail(layout: EmailLayout): EmailContent {
  return { subject: singleLine(layout.subject), text: renderText(layout), html: renderHtml(layout), ...(layout.headers ? { headers: layout.headers } : {}) };
}

function renderText(layout: EmailLayout): string {
  const lines: string[] = [];
  if (layout.addressee !== undefined) lines.push(`${singleLine(layout.addressee)} 様`, '');
  lines.push(...layout.paragraphs, '');
  if (layout.action) lines.push(`${layout.action.label}: ${layout.action.url}`, '');
  lines.push(...layout.details.map((d) => `${d.label}: ${singleLine(d.value)}`), '');
  for (const section of layout.sections) lines.push(`■ ${section.heading}`, ...section.items.map((item, i) => `${i + 1}. ${item}`), '');
  lines.push(layout.footer);
  if (layout.link) lines.push('', `${layout.link.label}: ${layout.link.url}`);
  return `${lines.join('\n')}\n`;
}

function renderHtml(layout: EmailLayout): string {
  const e = escapeHtml;
  const parts = [
    '<!doctype html>',
    '<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="font-family: sans-serif; line-height: 1.7; color: #222;">',
  ];
  if (layout.addressee !== undefined) parts.push(`<p>${e(singleLine(layout.addressee))} 様</p>`);
  parts.push(...layout.paragraphs.map((p) => `<p>${e(p)}</p>`));
  if (layout.action) parts.push(`<p><a href="${e(layout.action.url)}" style="font-weight: bold;">${e(layout.action.label)}</a></p>`);
  parts.push(
    '<table style="border-collapse: collapse;">',
    ...layout.details.map(
      (d) => `<tr><th style="text-align: left; padding: 4px 16px 4px 0;">${e(d.label)}</th><td style="padding: 4px 0;">${e(singleLine(d.value))}</td></tr>`,
    ),
    '</table>',
  );
  for (const section of layout.sections) {
    parts.push(`<h2 style="font-size: 1.05em;">${e(section.heading)}</h2>`, '<ol>', ...section.items.map((item) => `<li>${e(item)}</li>`), '</ol>');
  }
  parts.push(`<p style="color: #666; font-size: 0.9em;">${e(layout.footer)}</p>`);
  if (layout.link) parts.push(`<p style="font-size: 0.9em;"><a href="${e(layout.link.url)}">${e(layout.link.label)}</a></p>`);
  parts.push('</body></html>');
  return parts.join('\n');
}

const JST = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

// Intl formatting is slow next to everything else a reservation does (bench/reservations.ts), and
// its answer changes once a minute: the last one is kept.
let lastMinute = { start: NaN, text: '' };

/** `2026年11月22日 09:18` in Japan time, as a customer in Japan reads a time. */
export function formatJapanTime(iso: string): string {
  const time = Date.parse(iso);
  const start = time - (time % 60_000);
  if (start !== lastMinute.start) lastMinute = { start, text: JST.format(time) };
  return lastMinute.text;
}

const YEN = new Intl.NumberFormat('ja-JP');

/** `¥42,000`, or that the price is not set yet. */
export function formatYen(price: number | null): string {
  return price === null ? '未定' : `¥${YEN.format(price)}`;
}
