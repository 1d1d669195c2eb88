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

test('lengths count characters, not UTF-16 units; the restock kind requires its unsubscribe link', () => {
  const body = '{{unsubscribeUrl}}';
  assert.deepEqual(templateProblems('restock-available', { subject: '𝄞'.repeat(200), body }), []);
  assert.deepEqual(templateProblems('restock-available', { subject: '𝄞'.repeat(201), body: '' }), [
    { field: 'subject', message: 'subject must be 1–200 characters (it has 201)' },
    { field: 'body', message: 'body must be 1–20,000 characters (it has 0)' },
    { field: 'body', message: 'Missing required placeholder: {{unsubscribeUrl}}' },
  ]);
  assert.deepEqual(templateProblems('reservation-confirmed', { subject: 's', body: '{{manageUrl}} {{unsubscribeUrl}}', enabled: false }), [
    { field: 'body', message: 'Unknown placeholder: {{unsubscribeUrl}}' },
  ]);
});
