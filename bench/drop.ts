import { loadavg } from 'node:os';
import { onBothStores, type Store } from './lib/both-stores.ts';
import { checkouts, type Checkout } from './lib/checkouts.ts';
import { sendCrowd, probeHealth, type CrowdAnswer, type CrowdRequest } from './lib/crowd.ts';
import { newDatabase } from './lib/databases.ts';
import { startCountingReceiver, type CountingReceiver } from './lib/counting-receiver.ts';
import { percentile, printTable, verdict } from './lib/report.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';
import { tenpoEnv } from './preorder-rush.ts';

// The drop (docs/preorders.md): a campaign of 500 seats, one per customer, opened to 5,000 customers
// arriving at 500 a second for 10 s, each on their own (an open crowd: bench/lib/crowd.ts), on SQLite
// with one instance and on PostgreSQL (durable) with two, the customers dealt to them in turn; /healthz
// asked every 20 ms beside it. Printed: the seats counted, the answers, the inversions (a customer
// refused whose request was sent before that of a customer seated, and by how much), p50/p99 of all
// answers and of the seated, /healthz p99, confirmations delivered, and the load average when each
// drop began. For this checkout and, in the same run, the one TENPO_BENCH_BEFORE names
// (bench/lib/checkouts.ts). `npm run bench drop-quick`: 100 seats, 600 customers at 200 a second.

interface Preset {
  capacity: number;
  customers: number;
  perSecond: number;
}

const FULL: Preset = { capacity: 500, customers: 5_000, perSecond: 500 };
const QUICK: Preset = { capacity: 100, customers: 600, perSecond: 200 };
const PRODUCT = 'kumo-vco-2';
const WARM_UP = { customers: 1_000, product: 'hayate-wavefolder' };
const PORTS = { first: 18961, second: 18962, receiver: 18963 };
const ADMIN = { authorization: 'Bearer bench-admin-token', 'content-type': 'application/json' };
const TARGET = { p99Ms: 500, healthzP99Ms: 50, inversionMs: 100 };

export const run = (): Promise<string[]> => drop(FULL);
export const runQuick = (): Promise<string[]> => drop(QUICK);

async function drop(preset: Preset): Promise<string[]> {
  const receiver = await startCountingReceiver(PORTS.receiver);
  const rows: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  try {
    await onBothStores('drop', async (store, databaseUrl) => {
      for (const checkout of checkouts()) {
        const instances = await startInstances(store, databaseUrl, checkout, receiver);
        try {
          const figures = await measure(preset, instances, receiver);
          rows.push({
            store: store === 'sqlite' ? 'SQLite, 1 instance' : 'PostgreSQL, 2 instances',
            checkout: checkout.label,
            ...figures.row,
          });
          if (checkout.label === 'now') verdicts.push(...judge(store, preset, figures));
        } finally {
          await Promise.all(instances.map((instance) => instance.stop()));
        }
      }
    });
  } finally {
    await receiver.close();
  }
  printTable(
    `The drop: ${preset.capacity} seats (one per customer), ${preset.customers.toLocaleString('en')} customers at ${preset.perSecond}/s`,
    rows,
  );
  return verdicts;
}

async function startInstances(store: Store, databaseUrl: string, checkout: Checkout, receiver: CountingReceiver): Promise<TenpoProcess[]> {
  if (store === 'sqlite') {
    const url = databaseUrl.replace(/tenpo\.db$/, `drop-${checkout.label}.db`);
    return [await startTenpo(dropEnv(url, receiver), { port: PORTS.first, root: checkout.root })];
  }
  const env = dropEnv(await newDatabase(databaseUrl, `drop_${checkout.label}`), receiver);
  const first = await startTenpo(env, { port: PORTS.first, root: checkout.root });
  return [first, await startTenpo(env, { port: PORTS.second, root: checkout.root })];
}

/** No rate limit and no cap on one address's connections: the crowd's customers all come from this machine. */
function dropEnv(databaseUrl: string, receiver: CountingReceiver): Record<string, string> & { DATABASE_URL: string } {
  return { ...tenpoEnv(databaseUrl, receiver.url), MAX_CONNECTIONS_PER_CLIENT: '0' };
}

interface Figures {
  counted: number;
  seated: CrowdAnswer[];
  answers: CrowdAnswer[];
  others: number;
  inversions: number[];
  healthzP99: number;
  confirmations: number;
  duplicates: number;
  row: Record<string, string | number>;
}

async function measure(preset: Preset, instances: TenpoProcess[], receiver: CountingReceiver): Promise<Figures> {
  // A shop that has been up a while: its code warm, some reservations of other products taken and confirmed.
  const warmUp = crowdOf(instances, WARM_UP.customers, WARM_UP.product, 'warm');
  receiver.reset();
  await sendCrowd(warmUp, preset.perSecond);
  await confirmations(receiver, warmUp.length);
  await admin(instances[0]!, '/api/admin/preorders/upsert', { productSlug: PRODUCT, capacity: preset.capacity, perCustomerLimit: 1 });
  receiver.reset();
  const load = loadavg()[0]!;
  const health = probeHealth(
    instances.map((instance) => instance.url),
    20,
  );
  const answers = await sendCrowd(crowdOf(instances, preset.customers, PRODUCT, 'drop'), preset.perSecond);
  const healthz = await health.stop();
  const seated = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 409 && a.body.includes('preorder_sold_out'));
  const lastSeatedSent = Math.max(...seated.map((a) => a.sentMs));
  const inversions = refused.filter((a) => a.sentMs < lastSeatedSent).map((a) => lastSeatedSent - a.sentMs);
  const confirmed = await confirmations(receiver, seated.length);
  const { preorders } = (await admin(instances[0]!, '/api/admin/preorders/list', {})) as { preorders: { reserved: number }[] };
  const figures = {
    counted: preorders[0]!.reserved,
    seated,
    answers,
    others: answers.length - seated.length - refused.length,
    inversions,
    healthzP99: percentile(healthz, 0.99),
    confirmations: confirmed,
    duplicates: receiver.duplicateEmails,
  };
  const p = (list: CrowdAnswer[], q: number) =>
    percentile(
      list.map((a) => a.answeredMs - a.sentMs),
      q,
    );
  return {
    ...figures,
    row: {
      'load avg': load.toFixed(1),
      'seats counted / 200s': `${figures.counted} / ${seated.length}`,
      '409 / other': `${refused.length} / ${figures.others}`,
      'inversions (> 100 ms), max ms': `${inversions.length} (${inversions.filter((ms) => ms > TARGET.inversionMs).length}), ${Math.round(Math.max(0, ...inversions))}`,
      'all p50 / p99 ms': `${p(answers, 0.5)} / ${p(answers, 0.99)}`,
      'seated p50 / p99 ms': `${p(seated, 0.5)} / ${p(seated, 0.99)}`,
      'last seat at ms': Math.round(Math.max(...seated.map((a) => a.answeredMs))),
      'healthz p99 ms': figures.healthzP99,
      'emails (dup)': `${confirmed} (${receiver.duplicateEmails})`,
    },
  };
}

/** `customers` reservations of `productSlug`, one per address, dealt to the instances in turn. */
function crowdOf(instances: TenpoProcess[], customers: number, productSlug: string, prefix: string): CrowdRequest[] {
  return Array.from({ length: customers }, (_, i) => ({
    url: instances[i % instances.length]!.url,
    path: '/api/reservation',
    body: JSON.stringify({ name: `先着 太郎 ${i}`, email: `${prefix}${i}@example.com`, productSlug }),
  }));
}

function judge(store: Store, preset: Preset, figures: Figures): string[] {
  const p99 = (list: CrowdAnswer[]) =>
    percentile(
      list.map((a) => a.answeredMs - a.sentMs),
      0.99,
    );
  const late = figures.inversions.filter((ms) => ms > TARGET.inversionMs).length;
  return [
    verdict(
      `drop on ${store}: seats counted / answered 200 / other answers`,
      figures.counted === preset.capacity && figures.seated.length === preset.capacity && figures.others === 0,
      `${figures.counted} / ${figures.seated.length} / ${figures.others}`,
      `${preset.capacity} / ${preset.capacity} / 0`,
    ),
    verdict(
      `drop on ${store}: refused customers sent over ${TARGET.inversionMs} ms before a seated one`,
      late === 0,
      `${late} (${figures.inversions.length} sent before it at all)`,
      '0',
    ),
    verdict(`drop on ${store}: all answers p99`, p99(figures.answers) < TARGET.p99Ms, `${p99(figures.answers)} ms`, `< ${TARGET.p99Ms} ms`),
    verdict(`drop on ${store}: seated p99`, p99(figures.seated) < TARGET.p99Ms, `${p99(figures.seated)} ms`, `< ${TARGET.p99Ms} ms`),
    verdict(
      `drop on ${store}: /healthz p99`,
      figures.healthzP99 < TARGET.healthzP99Ms,
      `${figures.healthzP99} ms`,
      `< ${TARGET.healthzP99Ms} ms`,
    ),
    verdict(
      `drop on ${store}: confirmations delivered (duplicates)`,
      figures.confirmations === preset.capacity && figures.duplicates === 0,
      `${figures.confirmations} (${figures.duplicates})`,
      `${preset.capacity} (0)`,
    ),
  ];
}

/** The confirmation emails received, once as many as seated have come or 30 s have passed. */
async function confirmations(receiver: CountingReceiver, seated: number): Promise<number> {
  const until = Date.now() + 30_000;
  while (receiver.emails.size < seated && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  // A moment more, for any email beyond those expected (which would be a duplicate or a stranger's).
  await new Promise((resolve) => setTimeout(resolve, 500));
  return receiver.emails.size;
}

async function admin(tenpo: TenpoProcess, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(tenpo.url + path, { method: 'POST', headers: ADMIN, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
