import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';

export interface TenpoProcess {
  url: string;
  /** Process start to the first 200 from /healthz. */
  coldStartMs: number;
  child: ChildProcess;
  /** SIGTERM, then wait for exit. */
  stop(): Promise<void>;
}

/**
 * Starts `node src/main.ts` as its own process (as `npm start` would) with the given environment,
 * and waits until /healthz answers 200. Logs go to /dev/null unless TENPO_BENCH_LOGS is set.
 */
export async function startTenpo(env: Record<string, string>, options: { port: number }): Promise<TenpoProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, ['src/main.ts'], {
    env: { PATH: process.env.PATH, PREORDER_API_TOKEN: 'bench-admin-token', ...env, PORT: String(options.port), HOST: '127.0.0.1' },
    stdio: ['ignore', process.env.TENPO_BENCH_LOGS ? 'inherit' : 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tenpo exited with code ${child.exitCode} before answering`);
    if ((await status(`${url}/healthz`)) === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return {
    url,
    coldStartMs: performance.now() - started,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}
