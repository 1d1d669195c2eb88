import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';

// The service's own OpenAPI document, checked against the OpenAPI 3.1 schema, and a check that an
// answer the service gave is one the document describes: its status is listed for that operation
// and its body matches that status's schema. Any suite can use it on the answers it gets.

/** The parts of a JSON Schema the tests read; the rest passes through. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  [keyword: string]: unknown;
}
const JsonSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    enum: z.array(z.unknown()).optional(),
    required: z.array(z.string()).optional(),
    properties: z.record(z.string(), JsonSchema).optional(),
    items: JsonSchema.optional(),
    anyOf: z.array(JsonSchema).optional(),
    allOf: z.array(JsonSchema).optional(),
    $ref: z.string().optional(),
  }),
);
const Content = z.record(z.string(), z.looseObject({ schema: JsonSchema.optional() }));
const Operation = z.looseObject({
  summary: z.string().optional(),
  operationId: z.string().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z.array(z.looseObject({ name: z.string(), in: z.string(), required: z.boolean().optional(), schema: JsonSchema })).optional(),
  requestBody: z.looseObject({ content: Content }).optional(),
  responses: z.record(z.string(), z.looseObject({ description: z.string(), content: Content.optional() })),
});
/** An OpenAPI document as far as the tests read it, checked when read. */
export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  paths: z.record(z.string(), z.record(z.string(), Operation)),
  servers: z.array(z.looseObject({ url: z.string() })).optional(),
  components: z.looseObject({
    securitySchemes: z.record(
      z.string(),
      z.looseObject({ type: z.string(), scheme: z.string().optional(), description: z.string().optional() }),
    ),
    schemas: z.record(z.string(), JsonSchema),
  }),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;

export interface Contract {
  document: OpenApiDocument;
  /** Fails unless `body` is what the document says `method path` answers with `status`. */
  check(method: string, path: string, status: number, body: unknown): void;
}

export async function loadContract(baseUrl: string): Promise<Contract> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  assert.equal(response.status, 200);
  const document = OpenApiDocument.parse(await response.json());
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.equal(result.valid, true, `the document breaks the OpenAPI schema: ${JSON.stringify(result.errors, null, 2)}`);
  assert.match(validator.version, /^3\.1/);
  const resolved = OpenApiDocument.parse(validator.resolveRefs());

  // Strict: a schema with an unknown keyword or a malformed part fails to compile.
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (method: string, path: string, status: number): ValidateFunction | undefined => {
    const key = `${method} ${path} ${status}`;
    if (!compiled.has(key)) {
      const operation = resolved.paths[path]?.[method.toLowerCase()];
      assert.ok(operation, `${method} ${path} is not in the document`);
      const documented = operation.responses[String(status)];
      assert.ok(
        documented,
        `${method} ${path} answered ${status}, which the document does not list (${Object.keys(operation.responses).join(', ')})`,
      );
      const schema = documented.content?.['application/json']?.schema;
      if (schema) compiled.set(key, ajv.compile(schema));
    }
    return compiled.get(key);
  };

  return {
    document,
    check(method, path, status, body) {
      const validate = validatorFor(method, path, status);
      if (!validate) return;
      assert.ok(
        validate(body),
        `${method} ${path} ${status}: the body does not match the document: ${JSON.stringify(validate.errors, null, 2)}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    },
  };
}
