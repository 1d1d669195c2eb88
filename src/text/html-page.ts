import { escapeHtml } from './safe-text.ts';

// The short Japanese pages customers open from an email link (unsubscribe, their reservation), and
// the service's front page: self-contained, readable on a phone, loading nothing, so the token in their URL cannot leak
// through a Referer, and never framed.

export const HTML_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
};

/** A page with `heading` and `content` (HTML, already escaped by the caller). */
export function htmlPage(heading: string, content: string): string {
  return [
    '<!doctype html>',
    '<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(heading)}</title>`,
    '<style>',
    'body { font-family: system-ui, "Hiragino Sans", "Noto Sans JP", sans-serif; line-height: 1.7; color: #222; max-width: 36em; margin: 2em auto; padding: 0 1em; }',
    'h1 { font-size: 1.3em; } dl { display: grid; grid-template-columns: max-content 1fr; gap: .4em 1.2em; } dt { color: #666; } dd { margin: 0; overflow-wrap: anywhere; }',
    '.notice { padding: .8em 1em; border-radius: 6px; background: #eef6ee; } .notice.warn { background: #fdf3e6; }',
    'button { font: inherit; font-size: 1.05em; padding: .7em 1.4em; border: 0; border-radius: 6px; background: #b3261e; color: #fff; cursor: pointer; } button:focus-visible { outline: 3px solid #222; outline-offset: 2px; }',
    '.actions { display: flex; flex-wrap: wrap; align-items: center; gap: .8em 1.5em; margin: 1.2em 0; } .actions a { padding: .7em 0; }',
    '.note { white-space: pre-line; }',
    '.shop { margin-top: 2.5em; padding-top: 1em; border-top: 1px solid #ddd; } .shop h2 { font-size: 1em; margin: 0 0 .3em; color: #555; } .shop p { margin: 0; overflow-wrap: anywhere; }',
    '@media (max-width: 30em) { button { width: 100%; } .actions { flex-direction: column; align-items: stretch; text-align: center; } dl { grid-template-columns: 1fr; gap: 0; } dd { margin-bottom: .6em; } }',
    '</style></head>',
    '<body>',
    `<h1>${escapeHtml(heading)}</h1>`,
    content,
    '</body></html>',
    '',
  ].join('\n');
}
