import type { ChildProcess } from 'node:child_process';
import { launchServiceProcess } from '../../test/helpers/service-process.ts';
import { startCommand } from './checkouts.ts';
import { preciseCpuMilliseconds } from './process-cpu.ts';

/**
 * How an operator starts it: `command`, what `npm start` runs, spawned as it is (the default);
 * `node`, the same script without npm start's flags; `npm`, through `npm start` itself.
 */
export type StartWay = 'command' | 'node' | 'npm';

export interface TenpoProcess {
  url: string;
  /** Process start to the first 200 from /healthz. */
  coldStartMs: number;
  /** CPU the start took by then: its main thread's, and all its threads'. */
  coldStartCpuMs: { main: number; all: number };
  child: ChildProcess;
  /** SIGTERM, then wait for exit. */
  stop(): Promise<void>;
}

/**
 * Starts tenpo as `npm start` would (the script it names, test/helpers/service-process.ts) in its
 * own process, or another `way`, from this checkout or from `root` (another checkout,
 * bench/lib/checkouts.ts), with the given environment and Node flags beyond npm start's
 * (`extraFlags`), and waits until /healthz answers 200. Logs go to /dev/null unless
 * TENPO_BENCH_LOGS is set; stderr is shown.
 */
export async function startTenpo(
  env: Record<string, string> & { DATABASE_URL: string },
  options: { port: number; root?: string; readyWithinMs?: number; extraFlags?: string[]; way?: StartWay },
): Promise<TenpoProcess> {
  const command = startCommand(options.root);
  const flags = options.way === 'node' ? [] : command.flags;
  const script = command.script;
  const started = performance.now();
  const service = await launchServiceProcess({
    env: { PREORDER_API_TOKEN: 'bench-admin-token', ...env },
    port: options.port,
    output: process.env.TENPO_BENCH_LOGS ? 'inherit' : 'ignore',
    root: options.root,
    entry: script,
    wrap: ([node, ...rest]) => (options.way === 'npm' ? ['npm', 'start'] : [node!, ...flags, ...(options.extraFlags ?? []), ...rest]),
  });
  try {
    await service.ready(options.readyWithinMs);
  } catch (error) {
    // One that never answered must not hold the port for the next.
    if (service.child.exitCode === null) await service.kill();
    throw error;
  }
  const coldStartMs = performance.now() - started;
  const pid = service.child.pid!;
  return {
    url: service.url,
    coldStartMs,
    coldStartCpuMs: { main: preciseCpuMilliseconds(pid, true), all: preciseCpuMilliseconds(pid) },
    child: service.child,
    stop: async () => {
      await service.stop();
    },
  };
}
