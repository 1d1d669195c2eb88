import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';

// The READMEs and docs/ are read in a clone, maybe offline: every link must resolve to a file of the
// repository (and a heading in it, when it names one) or to a path of the running service itself.

const root = join(import.meta.dirname, '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('README.md'))
    .map((f) => `src/${f}`),
];
const SERVICE = /^http:\/\/localhost:8787(\/|$)/;

/** Markdown links and autolinks outside code blocks and code spans. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)|<([a-z]+:[^>\s]+)>/g)].map((m) => (m[1] ?? m[2])!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set(
    [...prose.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

function problem(page: string, target: string): string | undefined {
  if (SERVICE.test(target)) return undefined;
  if (/^[a-z]+:/i.test(target) || target.startsWith('//')) return 'points outside the repository';
  if (target.startsWith('/')) return undefined; // a path of the service, e.g. /docs
  const [file, anchor] = target.split('#') as [string, string | undefined];
  const path = file === '' ? join(root, page) : join(dirname(join(root, page)), file);
  if (relative(root, path).startsWith('..')) return 'points outside the repository';
  if (!existsSync(path)) return 'names no file';
  if (anchor !== undefined && !anchors(readFileSync(path, 'utf8')).has(anchor)) return 'names no heading';
  return undefined;
}

test('every link in README.md and docs/*.md resolves inside the repository or the service', () => {
  const broken: string[] = [];
  for (const page of pages) {
    for (const target of links(readFileSync(join(root, page), 'utf8'))) {
      const why = problem(page, target);
      if (why !== undefined) broken.push(`${page}: ${target} ${why}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the link check finds what it must refuse', () => {
  assert.equal(problem('README.md', 'https://example.com/'), 'points outside the repository');
  assert.equal(problem('README.md', '../../shared/SPEC.md'), 'points outside the repository');
  assert.equal(problem('README.md', 'docs/missing.md'), 'names no file');
  assert.equal(problem('README.md', 'docs/operations.md#no-such-heading'), 'names no heading');
  assert.equal(problem('README.md', 'docs/operations.md#metrics-and-alerts'), undefined);
});
