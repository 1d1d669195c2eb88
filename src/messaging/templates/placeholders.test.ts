import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEMPLATE_KINDS } from '../kinds.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import { parseTemplate, templateProblems } from './placeholders.ts';

test('every default is valid for its kind', () => {
  for (const kind of TEMPLATE_KINDS) assert.deepEqual(templateProblems(kind, { ...DEFAULT_TEMPLATES[kind], enabled: true }), [], kind);
});

test('spaces inside the braces are ignored; text around placeholders is kept', () => {
  assert.deepEqual(parseTemplate('a{{ name }}b{{price}}').segments, [
    { text: 'a' },
    { placeholder: 'name' },
    { text: 'b' },
    { placeholder: 'price' },
  ]);
});

test('every problem is listed, each naming its field', () => {
  const problems = templateProblems('reservation-received', {
    subject: 'こんにちは {{Name}}\n二行目 {{',
    body: '{{ foo }} {{name}} {{bar}} {{foo}}',
    enabled: false,
  });
  assert.deepEqual(problems, [
    { field: 'subject', message: 'Unbalanced {{ at character 20: a placeholder must end with }}' },
    { field: 'subject', message: 'Unknown placeholder: {{Name}}' },
    { field: 'body', message: 'Unknown placeholder: {{foo}}' },
    { field: 'body', message: 'Unknown placeholder: {{bar}}' },
    { field: 'body', message: 'Missing required placeholder: {{manageUrl}}' },
    { field: 'subject', message: 'subject must be one line' },
    { field: 'enabled', message: 'reservation-received cannot be disabled' },
  ]);
});

test('an opening {{ inside another placeholder is unbalanced', () => {
  assert.deepEqual(parseTemplate('{{name {{price}}').unbalanced, [1]);
});

test('lengths count characters, not UTF-16 units; the restock kind requires its unsubscribe link and the shop’s signature', () => {
  const body = '{{unsubscribeUrl}}\n{{shopSignature}}';
  assert.deepEqual(templateProblems('restock-available', { subject: '𝄞'.repeat(200), body }), []);
  assert.deepEqual(templateProblems('restock-available', { subject: '𝄞'.repeat(201), body: '' }), [
    { field: 'subject', message: 'subject must be 1–200 characters (it has 201)' },
    { field: 'body', message: 'body must be 1–20,000 characters (it has 0)' },
    { field: 'body', message: 'Missing required placeholder: {{unsubscribeUrl}}' },
    { field: 'body', message: 'Missing required placeholder: {{shopSignature}}' },
  ]);
  assert.deepEqual(templateProblems('restock-available', { subject: 's', body: '{{unsubscribeUrl}}' }), [
    { field: 'body', message: 'Missing required placeholder: {{shopSignature}}' },
  ]);
  assert.deepEqual(templateProblems('reservation-confirmed', { subject: 's', body: '{{manageUrl}} {{unsubscribeUrl}}', enabled: false }), [
    { field: 'body', message: 'Unknown placeholder: {{unsubscribeUrl}}' },
  ]);
});

test('positions count characters before each unclosed {{, however many there are', () => {
  assert.deepEqual(parseTemplate('𝄞{{a {{b}} 日本{{').unbalanced, [2, 14]);
  const many = '{{'.repeat(9_000);
  assert.equal(parseTemplate(many).unbalanced.length, 9_000);
  assert.equal(parseTemplate(many).unbalanced.at(-1), 17_999);
  assert.equal(
    parseTemplate(many)
      .segments.map((s) => ('text' in s ? s.text : ''))
      .join(''),
    many,
    'the text is kept as it is',
  );
});

test('a text with thousands of problems answers with a few: the first unclosed {{ and ten unknown names', () => {
  const unknown = Array.from({ length: 500 }, (_, i) => `{{unknown${i}}}`).join('');
  const problems = templateProblems('reservation-received', { subject: '{{'.repeat(100), body: `${'{{'.repeat(9_000)}` });
  assert.deepEqual(problems.slice(0, 2), [
    { field: 'subject', message: 'Unbalanced {{ at character 1: a placeholder must end with }}' },
    { field: 'body', message: 'Unbalanced {{ at character 1: a placeholder must end with }}' },
  ]);
  const named = templateProblems('reservation-received', { subject: 's', body: `{{manageUrl}}${unknown}` });
  assert.deepEqual(
    named.map((p) => p.message),
    Array.from({ length: 10 }, (_, i) => `Unknown placeholder: {{unknown${i}}}`),
  );
});
