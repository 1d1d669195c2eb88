import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time a process has used so far (user + system, ms), from /proc/<pid>/stat (Linux). On a
 * machine shared with other work the requests per second a server reaches move with its neighbours;
 * the CPU it spends per request does much less, so suites report both.
 */
export function cpuMilliseconds(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and
  // stime are the 12th and 13th of them, in clock ticks (100 a second on Linux).
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time a process has used so far (ms, to the nanosecond), from each of its threads'
 * /proc/<pid>/task/<tid>/schedstat (Linux): for a start, whose 100 to 200 ms /proc/<pid>/stat counts
 * in steps of 10. `mainThread` counts the thread the JavaScript runs on alone, which a start waits
 * on; the others (V8's compiler and collector helpers, libuv's pool) run beside it.
 */
export function preciseCpuMilliseconds(pid: number, mainThread = false): number {
  const threads = mainThread ? [String(pid)] : readdirSync(`/proc/${pid}/task`);
  let nanoseconds = 0;
  for (const tid of threads) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return nanoseconds / 1e6;
}

/**
 * CPU time a process and its children have used so far (ms): its own, its living children's, and
 * what it has collected of those that ended. For a PostgreSQL server, whose every backend and
 * helper (the WAL writer, the checkpointer) is a child of the postmaster: the whole database's CPU.
 */
export function treeCpuMilliseconds(pid: number): number {
  // Its own utime and stime, then cutime and cstime: those of the children it has collected.
  const fields = statFields(pid);
  let ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = statFieldsIfAlive(Number(entry));
    // The parent's pid is the 2nd field after the command name.
    if (child && Number(child[1]) === pid) ticks += Number(child[11]) + Number(child[12]);
  }
  return ticks * 10;
}

function statFields(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
}

function statFieldsIfAlive(pid: number): string[] | undefined {
  try {
    return statFields(pid);
  } catch {
    return undefined; // ended since the directory was read
  }
}
