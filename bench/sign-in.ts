import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMilliseconds } from './lib/process-cpu.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// What one staff sign-in costs, and that its answer does not tell whether the address has an
// account. POST /api/admin/session on the real service (its own process, SQLite: the time is the
// password hash's, not the store's), one request at a time, the four kinds taken in turn so that
// the machine's noise falls on each alike: an address without an account, an account with a
// wrong password, a disabled account, and the right password. Each failing request names another
// address or account, so none reaches the ten failures that lock an address. The refusals must
// take the same time: their medians within 5 % of each other, and so the service's CPU for each.
// Then an owner's sign-in beside a flood of wrong ones from another client.

const ROUNDS = Number(process.env.BENCH_SIGN_INS ?? 40);
const PORT = 18891;
const TOKEN = 'bench-admin-token';
const PASSWORD = 'a bench password';

type Kind = 'no such account' | 'wrong password' | 'disabled account' | 'right password';
const KINDS: Kind[] = ['no such account', 'wrong password', 'disabled account', 'right password'];

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-sign-in-'));
  const tenpo = await startTenpo(
    { DATABASE_URL: `sqlite:${join(dir, 'tenpo.db')}`, LOG_LEVEL: 'warn', PREORDER_API_TOKEN: TOKEN, ADMIN_AUTH_FAILURES_PER_MINUTE: '0' },
    { port: PORT },
  );
  try {
    const admin = async (path: string, body: unknown) => {
      const answer = await fetch(tenpo.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as { staff: { id: string } };
    };
    // One account a round for each kind that needs one (a wrong password: ten per account at most).
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['wrong', 'disabled', 'right']) {
        const { staff } = await admin('/api/admin/staff/create', {
          email: `${kind}${round}@example.jp`,
          name: kind,
          role: 'staff',
          password: PASSWORD,
        });
        if (kind === 'disabled') await admin('/api/admin/staff/update', { id: staff.id, disabled: true });
      }
    }
    const credentials: Record<Kind, (round: number) => { email: string; password: string; expected: number }> = {
      'no such account': (round) => ({ email: `nobody${round}@example.jp`, password: PASSWORD, expected: 401 }),
      'wrong password': (round) => ({ email: `wrong${round}@example.jp`, password: `${PASSWORD}!`, expected: 401 }),
      'disabled account': (round) => ({ email: `disabled${round}@example.jp`, password: PASSWORD, expected: 401 }),
      'right password': (round) => ({ email: `right${round}@example.jp`, password: PASSWORD, expected: 200 }),
    };
    const times: Record<Kind, number[]> = { 'no such account': [], 'wrong password': [], 'disabled account': [], 'right password': [] };
    const cpu: Record<Kind, number> = { 'no such account': 0, 'wrong password': 0, 'disabled account': 0, 'right password': 0 };
    const pid = tenpo.child.pid!;
    for (let round = 0; round < ROUNDS; round++) {
      // The order turns each round, so no kind always follows another.
      for (let i = 0; i < KINDS.length; i++) {
        const kind = KINDS[(i + round) % KINDS.length]!;
        const { email, password, expected } = credentials[kind](round);
        const cpuBefore = cpuMilliseconds(pid);
        const started = performance.now();
        const answer = await fetch(`${tenpo.url}/api/admin/session`, { method: 'POST', body: JSON.stringify({ email, password }) });
        await answer.arrayBuffer();
        times[kind].push(performance.now() - started);
        cpu[kind] += cpuMilliseconds(pid) - cpuBefore;
        if (answer.status !== expected) throw new Error(`${kind}: answered ${answer.status}, not ${expected}`);
      }
    }
    const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!;
    printTable(
      `POST /api/admin/session, ${ROUNDS} of each kind, one at a time (ms)`,
      KINDS.map((kind) => ({
        kind,
        median: quantile(times[kind], 0.5),
        p10: quantile(times[kind], 0.1),
        p90: quantile(times[kind], 0.9),
        'CPU per sign-in': cpu[kind] / ROUNDS,
      })),
    );
    const refusalKinds = KINDS.filter((kind) => kind !== 'right password');
    const refusals = refusalKinds.map((kind) => quantile(times[kind], 0.5));
    const refusalCpu = refusalKinds.map((kind) => cpu[kind] / ROUNDS);
    const apart = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)) / Math.min(...xs);
    return [
      verdict(
        'sign-in refusals take the same time whether the address has an account, a wrong password or is disabled',
        apart(refusals) <= 0.05,
        `medians ${refusals.map((ms) => ms.toFixed(0)).join(' / ')} ms, ${(apart(refusals) * 100).toFixed(1)} % apart`,
        '≤ 5 % apart',
      ),
      // The service's own CPU per answer, which other load on the machine does not stretch as it stretches the wall clock.
      verdict(
        'sign-in refusals cost the service the same CPU whichever they are',
        apart(refusalCpu) <= 0.05,
        `${refusalCpu.map((ms) => ms.toFixed(0)).join(' / ')} ms, ${(apart(refusalCpu) * 100).toFixed(1)} % apart`,
        '≤ 5 % apart',
      ),
      `INFO  one sign-in (the right password): median ${quantile(times['right password'], 0.5).toFixed(0)} ms, ${(cpu['right password'] / ROUNDS).toFixed(0)} ms of CPU`,
      ...(await ownerBesideAFlood(dir, quantile(times['right password'], 0.5))),
    ];
  } finally {
    await tenpo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const FLOOD_ROUNDS = Number(process.env.BENCH_SIGN_IN_FLOODS ?? 5);
const FLOOD = 200;

/**
 * An owner signing in while one client sends 200 wrong sign-ins at once (the default limits, every
 * hop trusted so each round's flood comes from a client of its own): the owner, from elsewhere,
 * starts 100 ms into the flood, once its hashes are running. Goal: about a second at most.
 */
async function ownerBesideAFlood(dir: string, alone: number): Promise<string[]> {
  const tenpo = await startTenpo(
    {
      DATABASE_URL: `sqlite:${join(dir, 'flood.db')}`,
      LOG_LEVEL: 'warn',
      PREORDER_API_TOKEN: TOKEN,
      TRUST_PROXY: 'true',
      RATE_LIMIT_PER_MINUTE: '0',
    },
    { port: PORT + 10 },
  );
  try {
    const signIn = (email: string, password: string, from: string) =>
      fetch(`${tenpo.url}/api/admin/session`, {
        method: 'POST',
        headers: { 'x-forwarded-for': from },
        body: JSON.stringify({ email, password }),
      });
    const created = await fetch(`${tenpo.url}/api/admin/staff/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ email: 'owner@example.jp', name: 'owner', role: 'owner', password: PASSWORD }),
    });
    if (!created.ok) throw new Error(`staff/create: ${created.status}`);
    const waits: number[] = [];
    for (let round = 0; round < FLOOD_ROUNDS; round++) {
      const flood = Array.from({ length: FLOOD }, (_, i) => signIn(`nobody${round}-${i}@example.jp`, 'wrong', `192.0.2.${round + 1}`));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      const owner = await signIn('owner@example.jp', PASSWORD, '198.51.100.1');
      waits.push(performance.now() - started);
      if (owner.status !== 200) throw new Error(`the owner's sign-in answered ${owner.status}`);
      await Promise.all((await Promise.all(flood)).map((answer) => answer.arrayBuffer()));
    }
    const worst = Math.max(...waits);
    return [
      verdict(
        `an owner signs in beside ${FLOOD} wrong sign-ins at once from another client`,
        worst <= 1_000,
        `${waits.map((ms) => ms.toFixed(0)).join(' / ')} ms over ${FLOOD_ROUNDS} floods (alone: ${alone.toFixed(0)} ms)`,
        '≤ about 1 s',
      ),
    ];
  } finally {
    await tenpo.stop();
  }
}
