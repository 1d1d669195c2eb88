import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ApiError, type ErrorCode } from '../../client/tenpo-client.ts';
import { ERROR_CODES } from '../../http/error-codes.ts';
import { ERROR_WORDS, errorMessage, errorReason, reasonOf } from './errors.ts';

// Staff read every error in Japanese, from its code: the console has words for every code the
// service can answer, and never reads (or matches) the service's English.

const SRC = join(import.meta.dirname, '..', '..');
const CONSOLE = join(SRC, 'console');
const ALL_CODES = Object.keys(ERROR_CODES) as ErrorCode[];
/** Latin letters that are not a word staff read in English anyway. */
const ENGLISH = /[A-Za-z]{2,}/;

test('every code in the service’s table has a Japanese sentence in the console, and no code is worded that the table lacks', () => {
  assert.deepEqual(Object.keys(ERROR_WORDS).sort(), [...ALL_CODES].sort());
  for (const code of ALL_CODES) {
    const { what, next } = ERROR_WORDS[code];
    assert.match(what, /[ぁ-んァ-ヶ一-龯]/, code);
    assert.doesNotMatch(`${what}${next ?? ''}`, ENGLISH, code);
  }
});

test('a failed call is said from its code, the service’s text neither shown nor read', () => {
  const serviceText = 'Reservation was changed by someone else';
  for (const code of ALL_CODES) {
    const entry = ERROR_CODES[code];
    const said = errorMessage(new ApiError('status' in entry ? entry.status : 200, serviceText, { code }));
    if (code === 'email_not_sent') {
      // The provider's answer is what staff need to fix a refused address: kept, in brackets, after the sentence.
      assert.match(said, /^[^A-Za-z]+（メール送信サービスの応答: Reservation was changed by someone else）$/);
      continue;
    }
    assert.doesNotMatch(said, ENGLISH, `${code}: ${said}`);
    assert.ok(said.startsWith(ERROR_WORDS[code].what), `${code}: ${said}`);
  }
  // A reworded service text changes nothing: the code decides.
  assert.equal(
    errorMessage(new ApiError(409, 'Someone else changed it', { code: 'changed_by_someone_else' })),
    errorMessage(new ApiError(409, serviceText, { code: 'changed_by_someone_else' })),
  );
  assert.equal(
    errorMessage(new ApiError(409, 'Preorder is full', { code: 'preorder_full' })),
    '予約受付の台数に空きがないため、キャンセルから戻せません。予約受付の画面で台数を増やしてから、もう一度お試しください。',
  );
});

test('a field at fault is named in Japanese; an unknown code, or no envelope, gets a sentence from its status', () => {
  const details = [
    { field: 'closesAt', message: 'closesAt must be after opensAt' },
    { field: 'mystery', message: 'mystery is wrong' },
  ];
  assert.equal(
    errorMessage(new ApiError(400, 'Invalid parameters', { code: 'invalid_parameters', details })),
    '入力内容に誤りがあります（受付終了）。入力を確認してください。',
  );
  assert.equal(
    errorMessage(new ApiError(409, 'Something new happened', { code: 'a_code_from_a_newer_service' as ErrorCode })),
    'サーバーがこの操作を受け付けませんでした（HTTP 409、サーバーの応答: Something new happened）。ページを再読み込みして、もう一度お試しください。',
    'a refusal the console has no words for is said with the service’s own text',
  );
  assert.equal(
    errorMessage(new ApiError(503, 'HTTP 503')),
    'サーバーが応答していません（HTTP 503）。しばらくしてから再度お試しください。',
    'a proxy’s page for a service it cannot reach',
  );
  assert.equal(
    errorMessage(new ApiError(502, 'HTTP 502', { requestId: 'req-1' })),
    'サーバーが応答していません（HTTP 502）。しばらくしてから再度お試しください。（問い合わせ番号: req-1）',
  );
  assert.equal(
    errorMessage(new ApiError(500, 'HTTP 500', { requestId: 'req-2' })),
    'サーバーエラーが発生しました。しばらくしてから再度お試しください。（問い合わせ番号: req-2）',
  );
  assert.equal(
    errorMessage(new ApiError(0, 'No answer from the service')),
    'サーバーに接続できませんでした（サーバーが停止しているか、途中の回線に問題があります）。しばらくしてから再度お試しください。',
    'no answer from an online device: the service is out of reach',
  );
  assert.equal(reasonOf('already_archived'), 'すでにアーカイブ済みです');
  assert.equal(reasonOf('a_code_from_a_newer_service'), '処理できませんでした');
  assert.equal(errorReason(new ApiError(409, 'Preorder is full', { code: 'preorder_full' })), ERROR_WORDS.preorder_full.what);
});

/**
 * Every run of two or more English words in the service's one-line strings (error texts among
 * them: `'Preorder is full'`, `` `Invalid status transition: ${from} -> ${to}` ``), by the file it is in.
 */
function serverPhrases(): Map<string, string> {
  const phrases = new Map<string, string>();
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    const path = join(SRC, file);
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || path.startsWith(CONSOLE)) continue;
    for (const literal of literals(withoutComments(readFileSync(path, 'utf8')))) {
      for (const [run] of literal.matchAll(/[A-Za-z]+(?: [A-Za-z]+)+/g)) phrases.set(run.toLowerCase(), relative(SRC, path));
    }
  }
  return phrases;
}

/** The text of each one-line string or template literal (a template's pieces between its placeholders), and each regular expression. */
function literals(code: string): string[] {
  const strings = [...code.matchAll(/'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\\n]|\\.)*)`/g)].flatMap((m) => (m[1] ?? m[2]!).split(/\$\{[^}]*\}/));
  const regexps = [...code.matchAll(/(?<=[(,=:!&|?{};]\s*|return\s+)\/(?![*/])((?:\\.|\[(?:\\.|[^\]\n])*\]|[^/\\\n[])+)\/[dgimsuy]*/g)].map(
    (m) => m[1]!,
  );
  return [...strings, ...regexps];
}

function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

test('the console’s strings and patterns hold no two words in a row of any text the service writes (its errors among them)', () => {
  const phrases = serverPhrases();
  assert.ok(
    phrases.has('preorder is full') && phrases.has('reservation was changed by someone else'),
    'the scan reads the service’s texts',
  );
  const found: string[] = [];
  for (const file of readdirSync(CONSOLE, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = literals(withoutComments(readFileSync(join(CONSOLE, file), 'utf8')))
      .join('\n')
      .toLowerCase();
    for (const [phrase, source] of phrases) {
      const words = phrase.split(' ');
      for (let i = 1; i < words.length; i++) {
        const pair = `${words[i - 1]} ${words[i]}`;
        if (new RegExp(`(?<![a-z])${pair}(?![a-z])`).test(text)) found.push(`console/${file} holds “${pair}” of “${phrase}” (${source})`);
      }
    }
  }
  assert.deepEqual(found, []);
});

test('the scan finds a service text in a string or a pattern of the console', () => {
  const code =
    "if (message.endsWith('was changed by someone else')) x();\nconst move = /^Invalid status transition: (\\S+)/.exec(m); // not in a comment: Preorder is full";
  assert.deepEqual(literals(withoutComments(code)), ['was changed by someone else', '^Invalid status transition: (\\S+)']);
});

test('only this module reads a failed call’s own text, and says it only as a provider’s answer in brackets', () => {
  const readers: string[] = [];
  for (const file of readdirSync(CONSOLE, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    if (/\b(?:error|err|e|cause|failure|reason)\.message\b/.test(withoutComments(readFileSync(join(CONSOLE, file), 'utf8'))))
      readers.push(file);
  }
  assert.deepEqual(readers, [join('api', 'errors.ts')]);
});
