import type { EmailContent } from '../outbox/message.ts';
import { escapeHtml, singleLine } from '../../text/safe-text.ts';
import { MULTILINE_PLACEHOLDERS, URL_PLACEHOLDERS, type TemplateText } from '../kinds.ts';
import { parseTemplate, type Segment } from './placeholders.ts';

// A template and its values become the email's subject, text and HTML. The HTML is made from the
// text, so the two always say the same: paragraphs from blank lines, line breaks kept, URLs written
// in the template and the link placeholders as links, everything else escaped, values included. A
// value is one line wherever it goes (but the shop's own multi-line words: its signature, a
// campaign's note), so a customer's name can neither start a header nor a paragraph, and is never a
// link, so it cannot smuggle one into the shop's email. A line of the body that holds only
// placeholders, every one of them empty (an unset signature, a reservation without a campaign), or
// a short label and such placeholders (`発送予定: {{shipsIn}}`), is left out, with a blank line it
// would leave doubled: a label with nothing after it tells the customer nothing.

const URL_PATTERN = /https?:\/\/[^\s<>"'「」（）、。]+/g;

export function renderTemplate(
  template: TemplateText,
  values: Readonly<Record<string, string>>,
  headers?: Record<string, string>,
): EmailContent {
  const value = (name: string) => (MULTILINE_PLACEHOLDERS.has(name) ? multiLine(values[name] ?? '') : singleLine(values[name] ?? ''));
  const subject = singleLine(
    parseTemplate(template.subject)
      .segments.map((s) => ('text' in s ? s.text : singleLine(values[s.placeholder] ?? '')))
      .join(''),
  );
  const body = parseTemplate(withoutEmptyLines(template.body.replace(/\r\n?/g, '\n'), value)).segments;
  const text = body
    .map((s) => ('text' in s ? s.text : value(s.placeholder)))
    .join('')
    .replace(/\n*$/, '\n');
  return { subject, text, html: htmlDocument(body.map((s) => htmlOf(s, value)).join('')), ...(headers ? { headers } : {}) };
}

/** Line breaks as \n, each line trimmed at its end, no blank line (a paragraph break inside a value would split the email's). */
function multiLine(text: string): string {
  return text
    .split(/\r\n?|\n|\u2028|\u2029/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** What may come before a line's placeholders and still be left out with them: a label of up to 20 characters and a colon. */
const LABEL = /^\s*[^\s:：{}][^:：{}]{0,19}[:：]\s*$/;

/** The body without its lines that hold only placeholders (after a label, perhaps) all rendering empty; a blank line that would then follow another goes too. */
function withoutEmptyLines(body: string, value: (name: string) => string): string {
  const lines = body.split('\n');
  const kept: string[] = [];
  const blank = (line: string | undefined) => line !== undefined && line.trim() === '';
  for (let i = 0; i < lines.length; i++) {
    const { segments } = parseTemplate(lines[i]!);
    const placeholders = segments.flatMap((s) => ('placeholder' in s ? [s.placeholder] : []));
    const onlyPlaceholders =
      placeholders.length > 0 && segments.every((s, at) => 'placeholder' in s || s.text.trim() === '' || (at === 0 && LABEL.test(s.text)));
    if (!onlyPlaceholders || placeholders.some((name) => value(name).trim() !== '')) {
      kept.push(lines[i]!);
      continue;
    }
    // Left out; with the blank line after it too, when one comes before it (or it opened the text).
    if ((kept.length === 0 || blank(kept.at(-1))) && blank(lines[i + 1])) i++;
  }
  return kept.join('\n');
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
 * The one style in an email: on its body. A link or word longer than the screen (a 130-character
 * page link on a 390 px phone) breaks where it must rather than widen the email past the screen:
 * `overflow-wrap` where it is known, `word-break: break-word` for the clients that know only that.
 * The console's preview shows the email as sent, so the console's content security policy allows
 * exactly this attribute (web-assets/pages.ts).
 */
export const EMAIL_BODY_STYLE =
  'font-family: sans-serif; line-height: 1.7; color: #222; overflow-wrap: break-word; word-break: break-word;';

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
