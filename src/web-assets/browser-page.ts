import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { loadBrowserModules } from './browser-modules.ts';
import { hashedFilesRoute, sendStaticFile, staticFile, type StaticFile } from './static-file.ts';

/**
 * A page of the service made of its own browser TypeScript (the staff console, the demo
 * storefront): one HTML page at `path`, its modules (browser-modules.ts) and stylesheet under
 * `<path>/assets/`, built on the first request for any of them, with a strict content security
 * policy that allows this origin and the page's own import map only.
 */
export interface BrowserPageDefinition {
  path: string;
  /** The entry module, a path under src/ (`admin-console/main.ts`). */
  entry: string;
  /** The stylesheet, served beside the entry module. */
  stylesheet: URL;
  title: string;
  /** The HTML inside <body>. */
  body: string;
  /** Style attribute values the page may show in frames of its own making (an email's preview); all others are refused. */
  inlineStyles?: string[];
  /** Packages the modules import (see loadBrowserModules). */
  packages?: Record<string, string>;
  /** For the API reference. */
  tag: string;
  summary: string;
  description?: string;
}

interface BuiltPage {
  page: StaticFile;
  csp: string;
  /** Modules and the stylesheet, by their path under the assets prefix. */
  assets: Map<string, StaticFile>;
}

export function browserPageRoutes(definition: BrowserPageDefinition): Route[] {
  const assetsPrefix = `${definition.path}/assets/`;
  let built: BuiltPage | undefined;
  const page = () => (built ??= buildPage(definition, assetsPrefix));

  return [
    defineRoute({
      method: 'GET',
      path: definition.path,
      tag: definition.tag,
      summary: definition.summary,
      ...(definition.description ? { description: definition.description } : {}),
      cors: 'none',
      responses: {
        200: { description: 'The page; revalidated on every visit (ETag)', contentType: 'text/html' },
        ...errorResponses(405, 500),
      },
      handle: (c) => {
        const { page: html, csp } = page();
        return sendStaticFile(c, html, { 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer' });
      },
    }),
    hashedFilesRoute({
      path: `${assetsPrefix}:dir/:file`,
      tag: definition.tag,
      summary: 'A module or the stylesheet of the page',
      files: 'The module or stylesheet',
      find: (c) => page().assets.get(`${c.req.param('dir')}/${c.req.param('file')}`),
    }),
  ];
}

function buildPage(
  { entry, stylesheet, title, body, packages, inlineStyles = [] }: BrowserPageDefinition,
  assetsPrefix: string,
): BuiltPage {
  const modules = loadBrowserModules(entry, assetsPrefix, packages ? { packages } : {});
  const style = staticFile(posix.basename(stylesheet.pathname), readFileSync(stylesheet), { hashed: true });
  const stylePath = `${posix.dirname(entry)}/${style.name}`;
  const assets = new Map(modules.files);
  assets.set(stylePath, style);
  const importMap = JSON.stringify(modules.importMap);
  const importMapHash = createHash('sha256').update(importMap).digest('base64');
  const styleHashes = inlineStyles.map((style) => ` 'sha256-${createHash('sha256').update(style).digest('base64')}'`).join('');
  const html = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetsPrefix}${stylePath}">
<script type="importmap">${importMap}</script>
${modules.urls.map((url) => `<link rel="modulepreload" href="${url}">`).join('\n')}
<script type="module" src="${modules.entryUrl}"></script>
</head>
<body>
${body}
</body>
</html>
`;
  return {
    page: staticFile(`${posix.basename(entry, '.ts')}.html`, html, { hashed: false }),
    csp: `default-src 'none'; script-src 'self' 'sha256-${importMapHash}'; style-src 'self'${styleHashes ? ` 'unsafe-hashes'${styleHashes}` : ''}; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    assets,
  };
}
