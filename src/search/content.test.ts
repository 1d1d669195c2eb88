import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readContentSources } from './content-sources.ts';
import { parseContent, parseDocument } from './content.ts';

const source = (text: string) => ({ path: 'content/guides/x.md', contentType: 'guides', fileSlug: 'x', text });
const page = (frontMatter: string, body = '本文') => `---\n${frontMatter}\n---\n${body}`;
const GOOD = 'title: "タイトル <b>"\ndescription: "説明"\ntags: ["a", "b"]\ncreatedAt: "2025-04-12"';

test('front matter and body become a document; title and description stay as written', () => {
  assert.deepEqual(parseDocument(source(page(GOOD, '## 見出し\n\n**本文**です。'))), {
    id: 'guides/x',
    slug: '/guides/x',
    title: 'タイトル <b>',
    description: '説明',
    tags: ['a', 'b'],
    createdAt: '2025-04-12',
    body: '見出し\n本文です。',
  });
  // Plain YAML works as well as the quoted style of the sample.
  const plain = parseDocument(source(page('title: Wavefolding\ndescription: >-\n  two\n  lines\ntags:\n  - a\ncreatedAt: 2025-04-12')));
  assert.deepEqual([plain.title, plain.description, plain.tags, plain.createdAt], ['Wavefolding', 'two lines', ['a'], '2025-04-12']);
});

test('bad front matter is refused, naming the file and the field', () => {
  const cases: [string, RegExp][] = [
    ['no front matter', /must start with front matter/],
    [page('title: [unclosed'), /front matter is not valid YAML/],
    [page(GOOD.replace('title: "タイトル <b>"', 'title: "  "')), /field "title" must be a non-empty string/],
    [page(GOOD.replace('title: "タイトル <b>"\n', '')), /field "title" must be a non-empty string/],
    [page(GOOD.replace('tags: ["a", "b"]', 'tags: "a"')), /field "tags" must be a list of strings/],
    [page(GOOD.replace('"2025-04-12"', '"2025-02-30"')), /field "createdAt" must be an ISO 8601 date/],
    [page(GOOD.replace('description: "説明"\n', '')), /field "description" must be a string/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseDocument(source(text)),
      (error: Error) => {
        assert.match(error.message, /^content content\/guides\/x\.md: /);
        assert.match(error.message, message);
        return true;
      },
    );
  }
});

test('files are read per content type, sorted, and must have URL-safe names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-content-'));
  mkdirSync(join(dir, 'guides'));
  mkdirSync(join(dir, 'articles'));
  writeFileSync(join(dir, 'guides', 'b-two.md'), page(GOOD));
  writeFileSync(join(dir, 'guides', 'a-one.md'), page(GOOD));
  writeFileSync(join(dir, 'guides', 'notes.txt'), 'not content');
  writeFileSync(join(dir, 'articles', 'news.md'), page(GOOD));
  assert.deepEqual(
    parseContent(readContentSources(dir)).map((d) => d.id),
    ['articles/news', 'guides/a-one', 'guides/b-two'],
  );

  writeFileSync(join(dir, 'guides', 'Bad Name.md'), page(GOOD));
  assert.throws(() => readContentSources(dir), /content .*Bad Name\.md: "Bad Name" must be lowercase/);
  assert.throws(() => readContentSources(join(dir, 'missing')), /^Error: content .*missing: ENOENT/);
});
