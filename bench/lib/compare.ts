import { load, type LoadRequest, type LoadResult } from './load.ts';
import { cpuMilliseconds } from './process-cpu.ts';
import { median } from './stats.ts';

export interface Comparison {
  ours: LoadResult;
  baseline: LoadResult;
  /** Median over rounds of ours/baseline requests per second. */
  ratio: number;
  /** 2xx answers over every run, warm-ups included, per side (to check what a write benchmark stored). */
  okResponses: { ours: number; baseline: number };
  /** With `pids`: median over rounds of each server's CPU per request, µs. */
  cpuPerRequest?: { ours: number; baseline: number };
}

/**
 * Loads two servers in alternating rounds (A B, B A, A B …) after a warm-up, so drift in a shared,
 * noisy machine falls on both sides; reports each side's median round and the median ratio.
 */
export async function compareServers(options: {
  ours: string;
  baseline: string;
  requests: LoadRequest[];
  rounds?: number;
  secondsPerRound?: number;
  connections?: number;
  shared?: boolean;
  /** The servers' processes, to measure the CPU each spends per request (process-cpu.ts). */
  pids?: { ours: number; baseline: number };
}): Promise<Comparison> {
  const rounds = options.rounds ?? 3;
  const seconds = options.secondsPerRound ?? 5;
  const okResponses = { ours: 0, baseline: 0 };
  const cpu = { ours: [] as number[], baseline: [] as number[] };
  const run = async (url: string, s: number) => {
    const side = url === options.ours ? 'ours' : 'baseline';
    const pid = options.pids?.[side];
    const cpuBefore = pid === undefined ? 0 : cpuMilliseconds(pid);
    const result = await load({ url, requests: options.requests, seconds: s, connections: options.connections, shared: options.shared });
    if (pid !== undefined) cpu[side].push(((cpuMilliseconds(pid) - cpuBefore) * 1000) / result.total);
    okResponses[side] += result.ok;
    return result;
  };
  await run(options.ours, 2);
  await run(options.baseline, 2);
  const ours: LoadResult[] = [];
  const baseline: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
    for (const side of order) {
      if (side === 'ours') ours.push(await run(options.ours, seconds));
      else baseline.push(await run(options.baseline, seconds));
    }
  }
  const ratios = ours.map((o, i) => o.requestsPerSecond / baseline[i]!.requestsPerSecond);
  const cpuPerRequest = options.pids ? { ours: median(cpu.ours), baseline: median(cpu.baseline) } : undefined;
  return { ours: medianBy(ours), baseline: medianBy(baseline), ratio: median(ratios), okResponses, cpuPerRequest };
}

function medianBy(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)]!;
}
