import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

// The service's own OpenAPI document, checked against the OpenAPI 3.1 schema, and a check that an
// answer the service gave is one the document describes: its status is listed for that operation
// and its body matches that status's schema. Any suite can use it on the answers it gets.

type Json = Record<string, any>;

export interface Contract {
  document: Json;
  /** Fails unless `body` is what the document says `method path` answers with `status`. */
  check(method: string, path: string, status: number, body: unknown): void;
}

export async function loadContract(baseUrl: string): Promise<Contract> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  assert.equal(response.status, 200);
  const document = (await response.json()) as Json;
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.equal(result.valid, true, `the document breaks the OpenAPI schema: ${JSON.stringify(result.errors, null, 2)}`);
  assert.match(validator.version, /^3\.1/);
  const resolved = validator.resolveRefs() as Json;

  // Strict: a schema with an unknown keyword or a malformed part fails to compile.
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (method: string, path: string, status: number): ValidateFunction | undefined => {
    const key = `${method} ${path} ${status}`;
    if (!compiled.has(key)) {
      const operation = resolved.paths?.[path]?.[method.toLowerCase()];
      assert.ok(operation, `${method} ${path} is not in the document`);
      const documented = operation.responses?.[String(status)];
      assert.ok(documented, `${method} ${path} answered ${status}, which the document does not list (${Object.keys(operation.responses).join(', ')})`);
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
      assert.ok(validate(body), `${method} ${path} ${status}: the body does not match the document: ${JSON.stringify(validate.errors, null, 2)}\n${JSON.stringify(body).slice(0, 2000)}`);
    },
  };
}
