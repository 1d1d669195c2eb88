import { readFileSync } from 'node:fs';

/**
 * CPU time a process has used so far (user + system, ms), from /proc/<pid>/stat (Linux). On a
 * machine shared with other work the requests per second a server reaches move with its neighbours;
 * the CPU it spends per request does much less, so suites report both.
 */
export function cpuMilliseconds(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and
  // stime are the 12th and 13th of them, in clock ticks (100 a second on Linux).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
