import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, loadContentConfig } from '../src/config.ts';
import { buildIndexFile, heapIndexFile, heapIndexPath } from '../src/search/prebuilt-index.ts';

// `npm run build` (and `npm install`, through `prepare`): writes the search index of CONTENT_DIR to
// SEARCH_INDEX_PATH, and its heap form beside it, so the service starts without parsing the content
// (src/search/prebuilt-index.ts).
// Bad content fails here, naming the file, as it would fail the start.

try {
  const { contentDir, searchIndexPath } = loadContentConfig(process.env);
  const started = performance.now();
  const built = await buildIndexFile(contentDir);
  const { index, file } = built;
  mkdirSync(dirname(searchIndexPath), { recursive: true });
  // Whole or not at all: a service starting meanwhile reads the old file or the new one.
  for (const [path, bytes] of [
    [searchIndexPath, file],
    [heapIndexPath(searchIndexPath), heapIndexFile(built)],
  ] as const) {
    writeFileSync(`${path}.${process.pid}.tmp`, bytes);
    renameSync(`${path}.${process.pid}.tmp`, path);
  }
  const ms = Math.round(performance.now() - started);
  process.stdout.write(
    `search index: ${index.documents.length} documents from ${contentDir} → ${searchIndexPath} (${file.length} bytes, ${ms} ms)\n`,
  );
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`search index: ${error instanceof ConfigError ? 'configuration error: ' : ''}${message}\n`);
  process.exitCode = 1;
}
