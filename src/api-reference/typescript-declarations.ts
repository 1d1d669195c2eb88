// TypeScript declarations of the API, written from its OpenAPI document: the package a storefront
// installs (scripts/build-packages.ts) types its client with these instead of the route schemas'
// zod types, so its .d.ts files name no server module, zod or hono, and still say what the
// service's schemas say. Covers the JSON Schema the zod conversion writes; anything else is refused
// by name rather than typed loosely.

// oxlint-disable-next-line typescript/no-explicit-any -- a JSON Schema node, read keyword by keyword: the walk checks each keyword it knows and refuses the rest by name
type Json = Record<string, any>;

const COMPONENT_REF = /^#\/components\/schemas\/([A-Z][A-Za-z0-9]*)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Keywords that constrain values further than a type can say: left out of the types. */
const NOT_TYPED = new Set([
  'description',
  'default',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'propertyNames',
  'title',
  'examples',
]);
const TYPED = new Set([
  '$ref',
  'type',
  'const',
  'enum',
  'anyOf',
  'oneOf',
  'allOf',
  'items',
  'prefixItems',
  'properties',
  'required',
  'additionalProperties',
]);

/**
 * The declarations: each named component as a type of its name, and `Endpoints`, from each JSON
 * operation's path to `{input, output}`: its query parameters (GET) or body (POST), `undefined` when
 * it takes none, and its 200 answer.
 */
export function apiDeclarations(document: Json, header: string): string {
  const parts = [header];
  for (const [name, schema] of Object.entries((document.components?.schemas ?? {}) as Record<string, Json>)) {
    if (!COMPONENT_REF.test(`#/components/schemas/${name}`) || name === 'Endpoints')
      throw new Error(`component name ${name} cannot be a type name`);
    const type = typeOf(schema, '');
    // An object is an interface; anything else, a union of objects included, a type alias.
    const isInterface = schema.type === 'object' && type.startsWith('{');
    parts.push(
      `${doc(schema.description, '')}export ${isInterface ? `interface ${name} ` : `type ${name} = `}${type}${isInterface ? '' : ';'}\n`,
    );
  }
  const endpoints: string[] = [];
  for (const [path, operations] of Object.entries(document.paths as Record<string, Json>)) {
    const json = (Object.values(operations) as Json[]).filter(
      (operation) => operation.responses?.['200']?.content?.['application/json']?.schema,
    );
    if (json.length > 1) throw new Error(`${path} answers JSON to more than one method; the client knows an endpoint by its path`);
    for (const operation of json) {
      const answer = operation.responses['200'].content['application/json'].schema;
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const input = body ? typeOf(body, '    ') : queryType(operation.parameters ?? [], '    ');
      endpoints.push(
        `${doc(operation.summary, '  ')}  ${JSON.stringify(path)}: {\n    input: ${input};\n    output: ${typeOf(answer, '    ')};\n  };\n`,
      );
    }
  }
  parts.push(
    `/** Each JSON endpoint: what it takes (its query for GET, its body for POST) and its success answer. */\nexport interface Endpoints {\n${endpoints.join('')}}\n`,
  );
  return parts.join('\n');
}

function queryType(parameters: Json[], indent: string): string {
  const query = parameters.filter((parameter) => parameter.in === 'query');
  if (query.length === 0) return 'undefined';
  return objectType(
    Object.fromEntries(query.map((p) => [p.name, { ...p.schema, description: p.description }])),
    query.filter((p) => p.required).map((p) => p.name),
    false,
    indent,
  );
}

function typeOf(schema: Json, indent: string): string {
  const unknownKeyword = Object.keys(schema).find((key) => !TYPED.has(key) && !NOT_TYPED.has(key));
  if (unknownKeyword)
    throw new Error(`JSON Schema keyword ${unknownKeyword} has no TypeScript declaration here: ${JSON.stringify(schema).slice(0, 200)}`);
  if (schema.$ref !== undefined) {
    const name = COMPONENT_REF.exec(schema.$ref)?.[1];
    if (!name) throw new Error(`reference ${schema.$ref} is not to a component`);
    return name;
  }
  if ('const' in schema) return literal(schema.const);
  if (schema.enum) return union((schema.enum as unknown[]).map(literal));
  if (schema.anyOf ?? schema.oneOf) return union(((schema.anyOf ?? schema.oneOf) as Json[]).map((member) => typeOf(member, indent)));
  if (schema.allOf) return (schema.allOf as Json[]).map((member) => wrapped(member, indent)).join(' & ');
  if (Array.isArray(schema.type)) return union((schema.type as string[]).map((type) => typeOf({ ...schema, type }, indent)));
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      if (schema.prefixItems) return `[${(schema.prefixItems as Json[]).map((item) => typeOf(item, indent)).join(', ')}]`;
      return `${schema.items ? wrapped(schema.items, indent) : 'unknown'}[]`;
    case 'object':
      return objectType(schema.properties ?? {}, schema.required ?? [], schema.additionalProperties, indent);
    case undefined:
      return 'unknown';
    default:
      throw new Error(`JSON Schema type ${schema.type} has no TypeScript declaration here`);
  }
}

/**
 * An object type. Extra properties: `false` or not said (a request's schema) → none declared;
 * a schema → an index signature of its type (`unknown` beside named properties, which it must admit).
 */
function objectType(properties: Record<string, Json>, required: string[], additional: Json | boolean | undefined, indent: string): string {
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(
    ([name, property]) =>
      `${doc(property.description, inner)}${inner}${IDENTIFIER.test(name) ? name : JSON.stringify(name)}${required.includes(name) ? '' : '?'}: ${typeOf(property, inner)};\n`,
  );
  if (additional !== undefined && additional !== false) {
    const extra = additional === true || Object.keys(properties).length > 0 ? 'unknown' : typeOf(additional, inner);
    lines.push(`${inner}[key: string]: ${extra};\n`);
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('')}${indent}}`;
}

function doc(text: unknown, indent: string): string {
  return typeof text === 'string' && text !== ''
    ? `${indent}/** ${text.replaceAll('*/', '*\\/').replaceAll('\n', `\n${indent} * `)} */\n`
    : '';
}

function literal(value: unknown): string {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return JSON.stringify(value);
  throw new Error(`constant ${JSON.stringify(value)} has no TypeScript literal`);
}

function union(types: string[]): string {
  return [...new Set(types)].join(' | ');
}

/** The schema's type, parenthesised where it is a union or an intersection (so `[]` and `&` bind to all of it). */
function wrapped(schema: Json, indent: string): string {
  const type = typeOf(schema, indent);
  const members = [schema.anyOf, schema.oneOf, schema.allOf, schema.enum, Array.isArray(schema.type) ? schema.type : undefined].find(
    Array.isArray,
  );
  return members && members.length > 1 && !('const' in schema) && schema.$ref === undefined ? `(${type})` : type;
}
