import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { freePort } from './ports.ts';
import { postJson } from './post-json.ts';

// tenpo as an operator runs it: `node src/main.ts` in a process of its own, on its own port, with
// its own environment. Tests kill it (SIGTERM, or SIGKILL as a crash would), start it again on the
// same port and store, and read everything it printed. The benchmarks start the service through it too.

/** The repository root: the service runs from there, as `npm start` does. */
const ROOT = join(import.meta.dirname, '..', '..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceOptions {
  /**
   * The service's environment. DATABASE_URL is required: the default file would be the developer's
   * own. HOST defaults to 127.0.0.1 and PORT to `port`; a PORT given here wins (to test a bad value).
   */
  env: Record<string, string> & { DATABASE_URL: string };
  /** Default: a free port, kept across restarts. */
  port?: number;
  /**
   * Runs the command line through another program, e.g. a shell that sets resource limits first or
   * `runuser` to drop privileges: gets `[node, 'src/main.ts']`, returns the command line to run.
   */
  wrap?: (command: string[]) => string[];
  /** 'capture' (default) keeps stdout and stderr for the test; 'inherit' shows both; 'ignore' drops stdout (the log) and shows stderr. */
  output?: 'capture' | 'inherit' | 'ignore';
  /** Another checkout of tenpo to run (its own src/, build/, content/): the benchmarks compare one with this. Default: this one. */
  root?: string;
  /** The script node runs, relative to the root; default src/main.ts (the benchmarks run what `npm start` runs). */
  entry?: string;
}

export interface ServiceProcess {
  url: string;
  port: number;
  env: Record<string, string>;
  /** The process of the current run. */
  readonly child: ChildProcess;
  /** Everything written so far, over every run ('capture' only). */
  readonly stdout: string;
  readonly stderr: string;
  /** stdout's JSON lines (the pino log), parsed; other lines are left out. */
  logs(): Record<string, unknown>[];
  /** Resolves when the current run ends. */
  readonly exited: Promise<Exit>;
  /** Waits until /healthz answers 200; throws if the process exits first or `timeoutMs` passes. */
  ready(timeoutMs?: number): Promise<void>;
  /** fetch() relative to the service's URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POST JSON, as a storefront would (helpers/post-json.ts). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** POST JSON with the configured admin token. */
  admin(path: string, body: unknown): Promise<Response>;
  /** Sends `signal` (default SIGTERM: a graceful stop) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
  /** SIGKILL, as a crash or the OOM killer would: no shutdown code runs. */
  kill(): Promise<Exit>;
  /** Starts the service again with the same command, environment and port, and waits until it is ready. */
  restart(): Promise<void>;
}

/** Starts the service and waits until it is ready. */
export async function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  const service = await launchServiceProcess(options);
  try {
    await service.ready();
  } catch (error) {
    if (service.child.exitCode === null) await service.kill();
    throw error;
  }
  return service;
}

/** Starts the service without waiting for it: for starts that are expected to fail, or to time. */
export async function launchServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const env: Record<string, string> = { HOST: '127.0.0.1', PORT: String(port), ...options.env };
  const url = `http://127.0.0.1:${port}`;
  const output = options.output ?? 'capture';
  const node = [process.execPath, options.entry ?? 'src/main.ts'];
  const command = options.wrap ? options.wrap(node) : node;
  let stdout = '';
  let stderr = '';
  let child!: ChildProcess;
  let exited!: Promise<Exit>;

  const launch = () => {
    child = spawn(command[0]!, command.slice(1), {
      cwd: options.root ?? ROOT,
      // A group of its own, signalled as a whole: a wrapper such as runuser has the service as its
      // child, and a SIGKILL that reached only the wrapper would leave the service running.
      detached: true,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', output === 'capture' ? 'pipe' : output, output === 'capture' ? 'pipe' : 'inherit'],
    });
    // Always read the pipes: a child whose pipe is full blocks on its next log line.
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const current = child;
    // 'close', not 'exit': the output is complete once the pipes have closed too.
    exited = new Promise((resolve) => current.once('close', (code, signal) => resolve({ code, signal })));
  };
  launch();

  const ready = async (timeoutMs = 20_000) => {
    const current = child;
    const deadline = Date.now() + timeoutMs;
    let lastStatus = 0;
    // Polled every 2 ms: the benchmarks time a cold start by it.
    while ((lastStatus = await healthStatus(url)) !== 200) {
      if (current.exitCode !== null || current.signalCode !== null) {
        await exited;
        throw new Error(
          `tenpo exited (${current.exitCode ?? current.signalCode}) before answering: ${stderr.trim().split('\n').at(-1) ?? ''}`,
        );
      }
      if (Date.now() > deadline)
        throw new Error(
          `tenpo on port ${port} did not answer /healthz with 200 within ${timeoutMs} ms (last: ${lastStatus || 'no answer'})`,
        );
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const current = exited;
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, signal);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // it has just exited
      }
    }
    return current;
  };

  const request = (path: string, init?: RequestInit) => fetch(url + path, init);
  return {
    url,
    port,
    env,
    get child() {
      return child;
    },
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    get exited() {
      return exited;
    },
    logs: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return []; // the last line of a killed process can be cut short
          }
        }),
    ready,
    request,
    post: (path, body, headers) => postJson(request, path, body, headers),
    admin: (path, body) => postJson(request, path, body, { authorization: `Bearer ${env.PREORDER_API_TOKEN ?? ''}` }),
    stop,
    kill: () => stop('SIGKILL'),
    restart: async () => {
      if (child.exitCode === null && child.signalCode === null) throw new Error('restart() of a service that is still running');
      launch();
      await ready();
    },
  };
}

/** The status of GET /healthz, 0 when nothing answers. A fresh connection each time: no pool to go stale across restarts. */
function healthStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}
