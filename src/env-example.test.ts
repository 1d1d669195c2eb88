import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { configVariables, loadConfig } from './config.ts';
import { configurationDoc, envExample } from './env-example.ts';

const checkedIn = () => readFileSync(join(import.meta.dirname, '..', '.env.example'), 'utf8');

test('.env.example is current: regenerate it with npm run env:example', () => {
  assert.equal(checkedIn(), envExample());
});

test('.env.example names every variable the configuration reads, each described', () => {
  const named = [...checkedIn().matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
  assert.deepEqual(
    named,
    configVariables().map((v) => v.name),
  );
  for (const variable of configVariables()) assert.ok(variable.description.length > 10, `${variable.name} has a description`);
});

test('the defaults it shows are the ones the configuration uses', () => {
  const shown = new Map([...checkedIn().matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  const config = loadConfig({});
  assert.equal(shown.get('PORT'), String(config.port));
  assert.equal(shown.get('RATE_LIMIT_PER_MINUTE'), String(config.rateLimitPerMinute));
  assert.equal(shown.get('CATALOG_PATH'), config.catalogPath);
  // Set, every default shown gives a valid configuration.
  loadConfig(Object.fromEntries([...shown].filter(([, value]) => value !== '')));
});

test('docs/configuration.md is current, with the same facts as .env.example: regenerate both with npm run env:example', () => {
  const page = readFileSync(join(import.meta.dirname, '..', 'docs', 'configuration.md'), 'utf8');
  assert.equal(page, configurationDoc());
  const headings = [...page.matchAll(/^### `([A-Z][A-Z0-9_]*)`$/gm)].map((m) => m[1]);
  assert.deepEqual(
    headings,
    configVariables().map((v) => v.name),
  );
});
