import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// What the suites measure: this checkout, and, when TENPO_BENCH_BEFORE names another checkout of
// tenpo (`git worktree add /work/wt-before <commit>`, then `npm ci` there), that one too, side by side
// in the same run, so a change is measured before and after on the same machine at the same moment.

export interface Checkout {
  /** `now`, or `before`. */
  label: string;
  /** The checkout's root; undefined for this one. */
  root?: string;
}

const THIS_ROOT = join(import.meta.dirname, '..', '..');

export function checkouts(): Checkout[] {
  const before = process.env.TENPO_BENCH_BEFORE;
  return [{ label: 'now' }, ...(before ? [{ label: 'before', root: before }] : [])];
}

/** What `npm start` runs in a checkout (`node [--flag …] <script>`): what an operator starts. */
export function startCommand(root = THIS_ROOT): { flags: string[]; script: string } {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const match = /^node((?: --\S+)*) (\S+)$/.exec(start);
  if (!match) throw new Error(`${root}: npm start is "${start}", not "node [--flag …] <script>"`);
  return { flags: match[1]!.split(' ').filter(Boolean), script: match[2]! };
}
