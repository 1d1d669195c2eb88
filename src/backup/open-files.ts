import { readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The ids of the processes (other than this one) that hold any of `files` open, read from Linux's
 * /proc; empty where /proc cannot tell (another system, or processes of another user), so this is a
 * guard against the common mistake, not a lock.
 */
export function processesHolding(files: string[]): number[] {
  const wanted = new Set(files.map(canonical));
  const holders: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return [];
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    const holds = fds.some((fd) => {
      try {
        return wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds) holders.push(Number(pid));
  }
  return holders;
}

function canonical(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}
