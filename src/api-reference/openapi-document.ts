import { z } from 'zod';
import type { ResponseDoc, Route } from '../http/route.ts';
import { ErrorSchema } from '../http/schemas.ts';

type JsonSchema = Record<string, unknown>;

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

const SECURITY_SCHEME = 'adminToken';
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * The OpenAPI 3.1 document of these routes, from the very schemas their handlers validate with:
 * requests from the schemas' input side (what a client may send), responses from their output side
 * (what the service answers). The error envelope is one shared component.
 */
export function openApiDocument(routes: Route[], info: DocumentInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.1',
    info,
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: convert(ErrorSchema, 'output') },
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: 'The administrator token (PREORDER_API_TOKEN or ADMIN_API_TOKEN). Missing or wrong: 401, checked before the body is read.',
        },
      },
    },
  };
}

/** Hono's `/a/:name` is OpenAPI's `/a/{name}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function operation(route: Route): Record<string, unknown> {
  const parameters = [...pathParameters(route.path), ...(route.query ? queryParameters(route.query) : [])];
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    operationId: operationId(route),
    ...(route.admin ? { security: [{ [SECURITY_SCHEME]: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } } : {}),
    responses: Object.fromEntries(Object.entries(route.responses).map(([status, doc]) => [status, response(doc)])),
  };
}

/** `POST /api/admin/notify/archives/list` → `postApiAdminNotifyArchivesList`. */
function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

function pathParameters(path: string): Record<string, unknown>[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

/** A query schema is an object of (possibly repeated) string values: each property is one parameter. */
function queryParameters(schema: z.ZodType): Record<string, unknown>[] {
  const object = jsonSchema(schema, 'input');
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

function response(doc: ResponseDoc): Record<string, unknown> {
  const schema = doc.schema ? jsonSchema(doc.schema, 'output') : doc.contentType ? { type: 'string' } : undefined;
  return {
    description: doc.description,
    ...(doc.headers
      ? { headers: Object.fromEntries(Object.entries(doc.headers).map(([name, value]) => [name, { description: `Always \`${value}\``, schema: { type: 'string', const: value } }])) }
      : {}),
    ...(schema ? { content: { [doc.contentType ?? 'application/json']: { schema } } } : {}),
  };
}

/** A schema as JSON Schema; the error envelope as a reference to its component. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return schema === ErrorSchema ? ERROR_REF : convert(schema, io);
}

function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...converted } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonSchema;
  return converted;
}
