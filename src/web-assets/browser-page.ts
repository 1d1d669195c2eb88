import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import type { Logger } from '../log.ts';
import { outOfDate, PROJECT_ROOT, readManifest, WEB_BUILD_ROOT, type PageManifest } from './page-manifest.ts';
import { BROWSER_PAGES, type BrowserPageDefinition, type PageName } from './pages.ts';
import { builtFile, staticFile, type StaticFile } from '../serving/static-file.ts';
import { hashedFilesRoute, sendStaticFile } from '../http/send-file.ts';

/** A page ready to serve: its HTML, policy and files, read once at start. */
export interface BuiltPage {
  definition: BrowserPageDefinition;
  html: StaticFile;
  csp: string;
  /** By the name they are served under (each carries a hash of its content). */
  files: Map<string, StaticFile>;
}

/**
 * The pages served in this environment, each from its build. A build older than its sources (or
 * none) is never served: in development it is bundled again here, saying so in one line, since a
 * developer edits and restarts (`npm run dev` restarts on every change under src/); anywhere else
 * the start stops, naming the source that changed and the command that builds it.
 */
export async function loadBrowserPages(options: { development: boolean; log: Logger; root?: string }): Promise<BuiltPage[]> {
  const { root = WEB_BUILD_ROOT } = options;
  const pages: BuiltPage[] = [];
  for (const [name, definition] of Object.entries(BROWSER_PAGES) as [PageName, BrowserPageDefinition][]) {
    if (definition.developmentOnly && !options.development) continue;
    const dir = join(root, name);
    let manifest = readManifest(dir);
    const stale = outOfDate(manifest);
    if (stale) {
      if (!options.development) {
        throw new Error(`the ${definition.path} page's build (${relative(PROJECT_ROOT, dir)}) is out of date: ${stale}; run npm run build`);
      }
      const started = performance.now();
      // Loaded only here: esbuild is for building, and a current build needs none of it.
      const { bundlePage } = await import('./bundle.ts');
      manifest = await bundlePage(name, root);
      options.log.info({ page: definition.path, ms: Math.round(performance.now() - started) }, `browser page rebuilt: ${stale}`);
    }
    pages.push(servedPage(definition, dir, manifest!));
  }
  return pages;
}

function servedPage(definition: BrowserPageDefinition, dir: string, manifest: PageManifest): BuiltPage {
  const files = new Map(manifest.files.map(({ name }) => [name, builtFile(name, readFileSync(join(dir, name)))]));
  const url = (name: string) => `${definition.path}/assets/${name}`;
  const styleHashes = (definition.inlineStyles ?? [])
    .map((style) => ` 'sha256-${createHash('sha256').update(style).digest('base64')}'`)
    .join('');
  const html = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${definition.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${url(manifest.stylesheet)}">
${manifest.preload.map((name) => `<link rel="modulepreload" href="${url(name)}">`).join('\n')}
<script type="module" src="${url(manifest.entry)}"></script>
</head>
<body>
${definition.body}
</body>
</html>
`;
  return {
    definition,
    html: staticFile('index.html', html, { hashed: false }),
    csp: `default-src 'none'; script-src 'self'; style-src 'self'${styleHashes ? ` 'unsafe-hashes'${styleHashes}` : ''}; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    files,
  };
}

/** The page at its path, and its files under `<path>/assets/`. */
export function browserPageRoutes({ definition, html, csp, files }: BuiltPage): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: definition.path,
      tag: definition.tag,
      summary: definition.summary,
      description: definition.description,
      cors: 'none',
      responses: {
        200: { description: 'The page; revalidated on every visit (ETag)', contentType: 'text/html' },
        ...errorResponses(405, 500),
      },
      handle: (c) => sendStaticFile(c, html, { 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer' }),
    }),
    hashedFilesRoute({
      path: `${definition.path}/assets/:file`,
      tag: definition.tag,
      summary: 'A script or the stylesheet of the page',
      files: 'The script or stylesheet',
      find: (c) => files.get(c.req.param('file') ?? ''),
    }),
  ];
}
