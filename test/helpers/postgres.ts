import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports.ts';

/** A PostgreSQL server of our own, in a temp dir on a free port, removed by stop(). */
export interface PostgresCluster {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  /** Starts the server again after stop({ keepData: true }). */
  start(): void;
  stop(options?: { keepData?: boolean }): void;
}

/** Finds initdb and pg_ctl: on PATH, or where Debian's postgresql package puts them. */
function binDir(): string {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => existsSync(join(debian, v, 'bin', 'initdb')));
    versions.sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0) return join(which.stdout.trim(), '..');
  throw new Error('PostgreSQL is not installed (no initdb); `bash .ci/run` installs the postgresql package');
}

/**
 * Starts a throwaway cluster: initdb + pg_ctl in a temp dir, on a free port, trust auth on
 * loopback. For tests durability is off (the cluster is thrown away); benchmarks ask for it on, so
 * their figures include the fsync a real server pays at every commit. PostgreSQL refuses to run as
 * root, so as root it runs as the `postgres` account the Debian package creates.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
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
  const start = () => run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', settings, '-w', 'start']);
  start();

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => {
      start();
      stopped = false;
    },
    stop: ({ keepData = false } = {}) => {
      if (!stopped) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      stopped = true;
      if (!keepData) rmSync(dir, { recursive: true, force: true });
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
