import type { EmailContent } from '../outbox/message.ts';
import { escapeHtml, singleLine } from '../../text/safe-text.ts';
import { URL_PLACEHOLDERS, type TemplateText } from '../kinds.ts';
import { parseTemplate, type Segment } from './placeholders.ts';

// A template and its values become the email's subject, text and HTML. The HTML is made from the
// text, so the two always say the same: paragraphs from blank lines, line breaks kept, URLs written
// in the template and the link placeholders as links, everything else escaped, values included. A
// value is one line wherever it goes, so a customer's name can neither start a header nor a paragraph,
// and is never a link, so it cannot smuggle one into the shop's email.

const URL_PATTERN = /https?:\/\/[^\s<>"'「」（）、。]+/g;

export function renderTemplate(
  template: TemplateText,
  values: Readonly<Record<string, string>>,
  headers?: Record<string, string>,
): EmailContent {
  const value = (name: string) => singleLine(values[name] ?? '');
  const subject = singleLine(
    parseTemplate(template.subject)
      .segments.map((s) => ('text' in s ? s.text : value(s.placeholder)))
      .join(''),
  );
  const body = parseTemplate(template.body.replace(/\r\n?/g, '\n')).segments;
  const text = body
    .map((s) => ('text' in s ? s.text : value(s.placeholder)))
    .join('')
    .replace(/\n*$/, '\n');
  return { subject, text, html: htmlDocument(body.map((s) => htmlOf(s, value)).join('')), ...(headers ? { headers } : {}) };
}

function htmlOf(segment: Segment, value: (name: string) => string): string {
  if ('text' in segment) return linkify(segment.text);
  const text = value(segment.placeholder);
  return URL_PLACEHOLDERS.has(segment.placeholder) && /^https?:\/\//.test(text) ? link(text) : escapeHtml(text);
}

function linkify(text: string): string {
  let html = '';
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    html += escapeHtml(text.slice(at, match.index)) + link(match[0]);
    at = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(at));
}

/**
 * The one style in an email: on its body. The console's preview shows the email as sent, so the
 * console's content security policy allows exactly this attribute (web-assets/pages.ts).
 */
export const EMAIL_BODY_STYLE = 'font-family: sans-serif; line-height: 1.7; color: #222;';

const link = (url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;

/** Escaped HTML with the text's line breaks: a blank line ends a paragraph, a single one is a <br>. */
function htmlDocument(escaped: string): string {
  const paragraphs = escaped
    .split(/\n[ \t\u3000]*\n\s*/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${p.replaceAll('\n', '<br>\n')}</p>`);
  return [
    '<!doctype html>',
    '<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    `<body style="${EMAIL_BODY_STYLE}">`,
    ...paragraphs,
    '</body></html>',
  ].join('\n');
}
