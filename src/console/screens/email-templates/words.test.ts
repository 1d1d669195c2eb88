import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KIND_RULES, TEMPLATE_KINDS } from '../../../messaging/kinds.ts';
import { templateProblems } from '../../../messaging/templates/placeholders.ts';
import { PLACEHOLDER_LABELS, templateProblemText } from './words.ts';

// Every problem the service can list for a template reaches staff in Japanese, naming what to fix.

test('each kind of template problem the service reports is said in Japanese', () => {
  const problems = [
    ...templateProblems('reservation-received', { subject: '', body: '{{ Name }} {{', enabled: false }),
    ...templateProblems('restock-available', { subject: `${'あ'.repeat(201)}\n\u0000`, body: 'x'.repeat(20_001) }),
  ];
  const messages = new Set(problems.map((p) => p.message.replace(/\d+/g, 'n')));
  assert.ok(messages.size >= 8, [...messages].join(' | '));
  for (const { message } of problems) {
    const text = templateProblemText(message);
    assert.notEqual(text, message, `not translated: ${message}`);
    assert.match(text, /[ぁ-んァ-ン一-龯]/, text);
  }
  assert.equal(templateProblemText('Unknown placeholder: {{Name}}'), '{{Name}} は使えない差し込み項目です（大文字・小文字も区別されます）');
  assert.equal(
    templateProblemText('Missing required placeholder: {{manageUrl}}'),
    '必須の差し込み項目 {{manageUrl}}（予約確認ページURL）が本文にありません',
  );
  assert.equal(
    templateProblemText('body must be 1–20,000 characters (it has 20001)'),
    '本文は1〜20,000文字で入力してください（現在 20001 文字）',
  );
});

test('every placeholder of every kind has a Japanese name for its chip', () => {
  for (const kind of TEMPLATE_KINDS) {
    for (const { name } of KIND_RULES[kind].placeholders) assert.ok(Object.hasOwn(PLACEHOLDER_LABELS, name), `${kind}: ${name}`);
  }
});
