import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDeclarations } from './typescript-declarations.ts';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

const DOCUMENT = {
  components: {
    schemas: {
      Item: {
        description: 'One item; never */ ends a comment early',
        type: 'object',
        properties: {
          id: { type: 'string' },
          price: { type: ['number', 'null'], minimum: 0 },
          state: { type: 'string', enum: ['new', 'old'] },
          'odd-name': { const: true },
          extras: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'integer' } },
          spec: { type: 'object', properties: { width: { type: 'string' } }, required: ['width'], additionalProperties: {} },
        },
        required: ['id', 'price', 'state', 'extras', 'spec'],
        additionalProperties: false,
      },
      Mixed: { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/Item' }] } },
      Event: {
        oneOf: [
          { type: 'object', properties: { type: { const: 'a' } }, required: ['type'] },
          { type: 'object', properties: { type: { const: 'b' } }, required: ['type'] },
        ],
      },
    },
  },
  paths: {
    '/items': {
      get: {
        summary: 'List items',
        parameters: [
          {
            name: 'tag',
            in: 'query',
            required: false,
            description: 'Repeatable',
            schema: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          },
          { name: 'page', in: 'query', required: true, schema: { type: 'string' } },
        ],
        responses: {
          200: json({
            type: 'object',
            properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
            required: ['items'],
          }),
        },
      },
    },
    '/items/add': {
      post: {
        summary: 'Add one',
        requestBody: json({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }),
        responses: { 200: json({ $ref: '#/components/schemas/Item' }) },
      },
    },
    '/ping': { get: { responses: { 200: json({ type: 'boolean' }) } } },
    '/page': { get: { responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } } } },
  },
};

test('names each component, and types each JSON endpoint by its query or body and its 200 answer', () => {
  const text = apiDeclarations(DOCUMENT, '// header\n');
  assert.ok(text.startsWith('// header\n'));
  assert.match(text, /\/\*\* One item; never \*\\\/ ends a comment early \*\/\nexport interface Item \{\n/);
  assert.match(text, /\n {2}price: number \| null;\n/);
  assert.match(text, /\n {2}state: "new" \| "old";\n/);
  assert.match(text, /\n {2}"odd-name"\?: true;\n/, 'a name that is no identifier is quoted; not required is optional');
  assert.match(text, /\n {2}extras: \{\n {4}\[key: string\]: number;\n {2}\};\n/);
  assert.match(
    text,
    /\n {2}spec: \{\n {4}width: string;\n {4}\[key: string\]: unknown;\n {2}\};\n/,
    'a loose object admits any further property',
  );
  assert.match(text, /export type Mixed = \(string \| Item\)\[\];\n/, 'a union is parenthesised before []');
  assert.match(
    text,
    /export type Event = \{\n {2}type: "a";\n\} \| \{\n {2}type: "b";\n\};\n/,
    'a union of objects is a type alias, not an interface',
  );
  assert.match(
    text,
    /"\/items": \{\n {4}input: \{\n {6}\/\*\* Repeatable \*\/\n {6}tag\?: string \| string\[\];\n {6}page: string;\n {4}\};\n {4}output: \{\n {6}items: Item\[\];\n {4}\};/,
  );
  assert.match(
    text,
    /\/\*\* Add one \*\/\n {2}"\/items\/add": \{\n {4}input: \{\n {6}id: string;\n {4}\};\n {4}output: Item;\n {2}\};/,
    'a POST endpoint takes its body',
  );
  assert.doesNotMatch(text, /"\/page"/, 'only JSON answers are endpoints');
  assert.match(text, /"\/ping": \{\n {4}input: undefined;\n {4}output: boolean;\n {2}\};/);
});

test('a path with two JSON methods is refused: the client knows an endpoint by its path', () => {
  const twice = {
    paths: { '/items': { get: { responses: { 200: json({ type: 'string' }) } }, post: { responses: { 200: json({ type: 'string' }) } } } },
  };
  assert.throws(() => apiDeclarations(twice, ''), /\/items answers JSON to more than one method/);
});

test('refuses what it cannot type rather than typing it loosely', () => {
  const withSchema = (schema: unknown) => ({ components: { schemas: { Thing: schema } }, paths: {} });
  assert.throws(() => apiDeclarations(withSchema({ type: 'object', patternProperties: { '^x': {} } }), ''), /keyword patternProperties/);
  assert.throws(() => apiDeclarations(withSchema({ $ref: 'https://elsewhere.example/schema' }), ''), /not to a component/);
  assert.throws(() => apiDeclarations(withSchema({ const: { a: 1 } }), ''), /no TypeScript literal/);
  assert.throws(
    () => apiDeclarations({ components: { schemas: { 'not-a-name': { type: 'string' } } }, paths: {} }, ''),
    /cannot be a type name/,
  );
});
