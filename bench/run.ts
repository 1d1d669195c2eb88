// `npm run bench [suite ...]`: runs the named suites (all by default) one after another and ends
// with every target's verdict. Each suite is a module exporting run(): Promise<string[]>.

const SUITES: Record<string, () => Promise<{ run(): Promise<string[]> }>> = {
  catalog: () => import('./catalog.ts'),
  reservations: () => import('./reservations.ts'),
  search: () => import('./search.ts'),
  'search-load': () => import('./search-load.ts'),
  'search-browser': () => import('./search-browser.ts'),
  'search-suggest': () => import('./search-suggest.ts'),
  subscriptions: () => import('./subscriptions.ts'),
  'status-emails': () => import('./status-emails.ts'),
  'outbox-retention': () => import('./outbox-retention.ts'),
  idempotency: () => import('./idempotency.ts'),
  'admin-console': () => import('./admin-console.ts'),
  'csv-export': () => import('./csv-export.ts'),
  'keyword-log-flood': () => import('./keyword-log-flood.ts'),
  'slow-connections': () => import('./slow-connections.ts'),
  'sign-in': () => import('./sign-in.ts'),
  sustained: () => import('./sustained.ts'),
  startup: () => import('./startup.ts'),
  capacity: () => import('./capacity.ts'),
  drop: () => import('./drop.ts'),
  'drop-quick': async () => ({ run: (await import('./drop.ts')).runQuick }),
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; choose from ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}

const verdicts: string[] = [];
for (const name of chosen.length > 0 ? chosen : Object.keys(SUITES)) {
  console.log(`\n=== ${name} ===`);
  verdicts.push(...(await (await SUITES[name]!()).run()));
}
console.log(`\n=== targets ===\n${verdicts.join('\n')}`);
