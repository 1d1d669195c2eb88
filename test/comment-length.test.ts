import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

// A comment says why in a few lines: no block of more than ten (consecutive `//` lines, or one
// `/* … */`) in the project's TypeScript, migrations apart (they keep the history of what they did).
// Measurements and their history belong in docs/performance.md.

const MAX_LINES = 10;
const ROOT = new URL('../', import.meta.url);
const FOLDERS = ['src', 'test', 'bench', 'scripts'];

/** The comment blocks of a file's text over `max` lines, as `line: length`. */
function longComments(text: string, max = MAX_LINES): string[] {
  const found: string[] = [];
  let start = 0;
  let length = 0;
  let inBlock = false;
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    const isComment = inBlock || trimmed.startsWith('//') || trimmed.startsWith('/*');
    if (trimmed.startsWith('/*') && !trimmed.includes('*/')) inBlock = true;
    else if (inBlock && trimmed.includes('*/')) inBlock = false;
    if (isComment) {
      if (length === 0) start = i + 1;
      length += 1;
    } else {
      if (length > max) found.push(`${start}: ${length}`);
      length = 0;
    }
  });
  if (length > max) found.push(`${start}: ${length}`);
  return found;
}

test('no comment block runs past ten lines outside migrations', () => {
  const files = FOLDERS.flatMap((folder) =>
    (readdirSync(new URL(`${folder}/`, ROOT), { recursive: true }) as string[])
      .map((path) => `${folder}/${path.split('\\').join('/')}`)
      .filter((path) => path.endsWith('.ts') && !path.includes('/migrations/')),
  );
  assert.ok(files.length > 300, 'the scan sees the tree');
  const long = files.flatMap((path) => longComments(readFileSync(new URL(path, ROOT), 'utf8')).map((block) => `${path}:${block} lines`));
  assert.deepEqual(long, []);
});

test('the scan counts `//` runs and block comments, and ends a run at code', () => {
  const lines = (n: number, line: string) => Array.from({ length: n }, () => line).join('\n');
  assert.deepEqual(longComments(`${lines(11, '// x')}\ncode();`), ['1: 11']);
  assert.deepEqual(longComments(`${lines(10, '// x')}\ncode();\n${lines(10, '// y')}`), []);
  assert.deepEqual(longComments(`/**\n${lines(10, ' * x')}\n */\nconst a = 1;`), ['1: 12']);
  assert.deepEqual(longComments(`const a = 1; // not a block\n${lines(3, '// x')}`), []);
});
