import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { Route } from '../http/route.ts';
import type { ResponseDoc } from '../http/schemas.ts';
import { SESSION_COOKIE } from '../http/session-cookie.ts';

type JsonSchema = Record<string, unknown>;

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

const SECURITY_SCHEME = 'adminToken';
const SESSION_SCHEME = 'staffSession';

/**
 * The OpenAPI 3.1 document of these routes, from the very schemas their handlers validate with:
 * requests from the schemas' input side (what a client may send), responses from their output side
 * (what the service answers). A schema declared with an id (`.meta({ id: 'Product' })`, where the
 * schema is declared) becomes a named component that every use refers to; `serverUrl` is where the
 * service is reached (PUBLIC_BASE_URL).
 */
export function openApiDocument(routes: Route[], info: DocumentInfo, serverUrl: string): Record<string, unknown> {
  const components = new NamedSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route, components);
  }
  return {
    openapi: '3.1.1',
    info,
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components.sorted(),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The administrator token (PREORDER_API_TOKEN or ADMIN_API_TOKEN), for scripts; it acts as an owner. Missing or wrong: 401, checked before the body is read.',
        },
        [SESSION_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            'A staff account’s session, set by POST /api/admin/session (the console). Ended, expired or of a disabled account: 401; sent from a page not the service’s own: 403 Origin not allowed; a `staff` account on an owner-only route: 403 Forbidden.',
        },
      },
    },
  };
}

/** Hono's `/a/:name` is OpenAPI's `/a/{name}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/**
 * A description's links to the guides are written for docs/endpoints.md, beside them; from /docs they
 * would resolve against the service, so the document names each guide by its path in the repository.
 */
function withDocsPaths(text: string): string {
  return text.replace(/\[([^\]]+)\]\(([\w-]+\.md(?:#[\w-]+)?)\)/g, '$1 (docs/$2)');
}

function operation(route: Route, components: NamedSchemas): Record<string, unknown> {
  const parameters = [
    ...pathParameters(route.path),
    ...(route.query ? queryParameters(route.query, components) : []),
    ...(route.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: withDocsPaths(route.description) } : {}),
    operationId: operationId(route),
    ...(route.admin ? { security: [{ [SECURITY_SCHEME]: [] }, { [SESSION_SCHEME]: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: components.convert(route.body, 'input') } } } }
      : {}),
    responses: Object.fromEntries(Object.entries(route.responses).map(([status, doc]) => [status, response(doc, components)])),
  };
}

/** `POST /api/admin/notify/archives/list` → `postApiAdminNotifyArchivesList`. */
function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** The header a route that is `idempotent` takes (src/http/idempotency-key.ts). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A key of your own (a UUID, say) for this request, sent again with every retry of it: within 24 hours the same key and request (the same fields once validated) answers the first answer again and writes and sends nothing; the key with another request is 422. Keys are per client address; a refused request (400, 409) is not remembered, so its retry is tried again. Malformed: 400 `Idempotency-Key must be 1 to 255 visible ASCII characters`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
};

function pathParameters(path: string): Record<string, unknown>[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

/** A query schema is an object of (possibly repeated) string values: each property is one parameter. */
function queryParameters(schema: z.ZodType, components: NamedSchemas): Record<string, unknown>[] {
  const object = components.convert(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = (object.required ?? []) as string[];
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    ...(description ? { description } : {}),
    schema: property,
  }));
}

function response(doc: ResponseDoc, components: NamedSchemas): Record<string, unknown> {
  const schema = doc.schema
    ? withCodes(components.convert(doc.schema, 'output'), doc.codes)
    : doc.contentType
      ? { type: 'string' }
      : undefined;
  return {
    description: doc.codes ? `${doc.description}: ${doc.codes.map((code) => `\`${code}\``).join(', ')}` : doc.description,
    ...(doc.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(doc.headers).map(([name, value]) => [
              name,
              { description: `Always \`${value}\``, schema: { type: 'string', const: value } },
            ]),
          ),
        }
      : {}),
    ...(schema ? { content: { [doc.contentType ?? 'application/json']: { schema } } } : {}),
  };
}

/**
 * An error envelope's schema narrowed to the codes this response can carry (first, so that Swagger
 * UI's example shows one of them rather than the first code of all).
 */
function withCodes(schema: JsonSchema, codes: readonly string[] | undefined): JsonSchema {
  return codes ? { allOf: [{ type: 'object', properties: { code: { enum: codes } } }, schema] } : schema;
}

const DEFS_REF = /^#\/\$defs\//;
const COMPONENTS_REF = '#/components/schemas/';

/**
 * Schemas as JSON Schema, the named ones collected as components. zod puts a schema with an id in
 * the `$defs` of each conversion that meets it; here those land once under components.schemas and
 * the references point there.
 */
class NamedSchemas {
  readonly #schemas = new Map<string, JsonSchema>();

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _dialect, $defs, ...converted } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonSchema;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) this.#add(name, pointRefs(definition));
    return pointRefs(converted);
  }

  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.#schemas].sort(([a], [b]) => a.localeCompare(b)));
  }

  #add(name: string, schema: JsonSchema): void {
    const known = this.#schemas.get(name);
    // A named schema whose input and output sides differ (defaults, transforms) would need two
    // components; none does today, and one name for two shapes would be a lie, so say so.
    if (known && !isDeepStrictEqual(known, schema))
      throw new Error(`schema ${name} converts to two different shapes (request and response?); give one of them its own id`);
    this.#schemas.set(name, schema);
  }
}

/** The converted schema with `#/$defs/X` references turned into `#/components/schemas/X`. */
function pointRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' ? value.replace(DEFS_REF, COMPONENTS_REF) : value,
  ) as JsonSchema;
}
