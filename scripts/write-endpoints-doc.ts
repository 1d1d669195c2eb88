import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withRouteTables } from '../src/api-reference/endpoints-doc.ts';
import { allRoutes } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startServer } from '../src/server.ts';

// npm run docs:endpoints: writes docs/endpoints.md's route tables from the routes of a development
// instance (the development-only routes included) on a throwaway SQLite store.
const root = join(import.meta.dirname, '..');
const page = join(root, 'docs', 'endpoints.md');
const dir = mkdtempSync(join(tmpdir(), 'tenpo-endpoints-doc-'));
const env = {
  APP_ENV: 'development',
  PORT: '0',
  HOST: '127.0.0.1',
  SHUTDOWN_DRAIN_SECONDS: '0',
  DATABASE_URL: `sqlite:${join(dir, 'tenpo.db')}`,
};
const server = await startServer(loadConfig(env), createLogger('error'));
try {
  writeFileSync(page, withRouteTables(readFileSync(page, 'utf8'), allRoutes(server.services)));
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
