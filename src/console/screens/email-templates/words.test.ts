import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KIND_RULES, TEMPLATE_KINDS } from '../../../messaging/kinds.ts';
import { findTemplateProblems } from '../../../messaging/templates/placeholders.ts';
import { PLACEHOLDER_LABELS, problemWords } from './words.ts';

// Every problem the service can find in a template reaches staff in Japanese, naming what to fix.

test('each kind of template problem is said in Japanese', () => {
  const problems = [
    ...findTemplateProblems('reservation-received', { subject: '', body: '{{ Name }} {{', enabled: false }),
    ...findTemplateProblems('restock-available', { subject: `${'あ'.repeat(201)}\n\u0000`, body: 'x'.repeat(20_001) }),
  ];
  assert.deepEqual([...new Set(problems.map((p) => p.type))].sort(), [
    'alwaysSent',
    'length',
    'missingPlaceholder',
    'multiline',
    'nul',
    'unbalanced',
    'unknownPlaceholder',
  ]);
  // No English but the placeholders' own names and the letters staff know them by (URL, NUL).
  for (const problem of problems) assert.doesNotMatch(problemWords(problem).replace(/\{\{\w+\}\}|URL|NUL/g, ''), /[A-Za-z]/, problem.type);
  const said = problems.map(problemWords);
  assert.ok(said.includes('{{Name}} は使えない差し込み項目です（大文字・小文字も区別されます）'), said.join('\n'));
  assert.ok(said.includes('必須の差し込み項目 {{manageUrl}}（予約確認ページURL）が本文にありません'), said.join('\n'));
  assert.ok(said.includes('本文は1〜20,000文字で入力してください（現在 20,001 文字）'), said.join('\n'));
});

test('every placeholder of every kind has a Japanese name for its chip', () => {
  for (const kind of TEMPLATE_KINDS) {
    for (const { name } of KIND_RULES[kind].placeholders) assert.ok(Object.hasOwn(PLACEHOLDER_LABELS, name), `${kind}: ${name}`);
  }
});
