import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { staticFile, type StaticFile } from '../serving/static-file.ts';

// The interactive reference at /docs: Swagger UI, served from its npm package by the service itself
// (no CDN: the reference works offline and the shop depends on no third party for it).

/** Where the page's scripts and stylesheets are served (the route `/docs/assets/:file`, routes.ts). */
export const DOCS_ASSETS_PREFIX = '/docs/assets/';

/** Swagger UI reads the document from the service; the validator badge (a third-party call) is off. */
const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
});
`;

const PAGE_STYLE = `html { box-sizing: border-box; overflow-y: scroll; }
*, *::before, *::after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; }
`;

/**
 * Swagger UI styles elements from its scripts (inline styles); everything else comes from this
 * origin only, and the page may not be framed.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export interface DocsPage {
  page: StaticFile;
  /** By the name they are served under (content-hashed). */
  assets: Map<string, StaticFile>;
}

/** The page and its assets; read once, on the first request for them. */
export function loadDocsPage(): DocsPage {
  const swaggerDir = dirname(createRequire(import.meta.filename).resolve('swagger-ui-dist/package.json'));
  const fromPackage = (name: string) => staticFile(name, readFileSync(join(swaggerDir, name)), { hashed: true });
  const style = fromPackage('swagger-ui.css');
  const bundle = fromPackage('swagger-ui-bundle.js');
  const pageStyle = staticFile('docs.css', PAGE_STYLE, { hashed: true });
  const start = staticFile('docs.js', START_SCRIPT, { hashed: true });
  const url = (file: StaticFile) => DOCS_ASSETS_PREFIX + file.name;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tenpo API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${url(style)}">
<link rel="stylesheet" href="${url(pageStyle)}">
</head>
<body>
<div id="reference"></div>
<script src="${url(bundle)}"></script>
<script src="${url(start)}"></script>
</body>
</html>
`;
  return {
    page: staticFile('docs.html', html, { hashed: false }),
    assets: new Map([style, bundle, pageStyle, start].map((file) => [file.name, file])),
  };
}
