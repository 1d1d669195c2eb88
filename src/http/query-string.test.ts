import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { queryOf } from './query-string.ts';

/** What URLSearchParams reads, in queryOf's shape. */
function expected(search: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(search)) {
    const previous = fields[name];
    fields[name] = previous === undefined ? value : [previous, value].flat();
  }
  return fields;
}

const pieces = fc.oneof(
  fc.constantFrom(
    '&',
    '=',
    '+',
    '%',
    '%2',
    '%25',
    '%26',
    '%3D',
    '%2B',
    '%20',
    '%E3%83%A2',
    '%e3%83%a2',
    '%E3%83',
    '%ED%A0%80',
    '%C0%AF',
    '%F4%90%80%80',
    '%FF',
    '\ud800',
    '__proto__',
    'q',
    'excerpt_length',
  ),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }).map(encodeURIComponent),
);

test('a query reads as URLSearchParams reads it, whatever it holds', () => {
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
      const search = parts.join('');
      assert.deepEqual(queryOf(`/api/search?${search}`), expected(search));
    }),
    { numRuns: 5_000 },
  );
});

test('repeated names gather their values in order; names like __proto__ are plain keys', () => {
  const query = queryOf('/x?q=a+b&q=%E3%83%A2&__proto__=1&constructor&q=');
  assert.deepEqual(query.q, ['a b', 'モ', '']);
  assert.deepEqual([Object.keys(query), query['__proto__'], query.constructor], [['q', '__proto__', 'constructor'], '1', '']);
  assert.equal(Object.getPrototypeOf(query), null);
});

test('a broken escape or bytes that are not UTF-8 are read as URLSearchParams reads them', () => {
  assert.deepEqual(queryOf('/x?q=%E3%83&r=100%'), expected('q=%E3%83&r=100%'));
  assert.equal(queryOf('/x?q=%E3%83&r=100%').q, '\ufffd');
  assert.equal(queryOf('/x?q=%E3%83&r=100%').r, '100%');
  assert.deepEqual(queryOf('/x'), Object.create(null));
});
