/**
 * Checks real /api answers against the served OpenAPI document: the status must be one the
 * operation lists, the JSON body must pass its schema (a JSON Schema 2020-12 validator, not our
 * zod schemas, so the document itself is what is tested), a 429 must carry Retry-After and
 * X-Next-Cursor may only come from a paged operation. The test harness runs it on every answer
 * of every server test, so a document that drifts from the code fails the suite.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Operation {
  operationId: string;
  responses: Record<string, Json>;
}

export interface OpenApiLike {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  operation: Operation;
}

export interface Contract {
  /** Problems found so far, one line each. */
  problems: string[];
  /** `operationId status` of every answer checked. */
  seen: Set<string>;
  check(answer: {
    method: string;
    url: string;
    status: number;
    headers: Record<string, unknown>;
    body: string;
  }): void;
}

function routesOf(doc: OpenApiLike): Route[] {
  const routes: Route[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const source = template
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    for (const [method, operation] of Object.entries(methods)) {
      routes.push({ method: method.toUpperCase(), template, pattern: new RegExp(`^${source}$`), operation });
    }
  }
  // A literal segment wins over a parameter, as in the router (/api/users/profile-image).
  return routes.sort((a, b) => a.template.split('{').length - b.template.split('{').length);
}

export function createContract(doc: OpenApiLike): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const routes = routesOf(doc);
  const validators = new Map<string, ValidateFunction>();
  const problems: string[] = [];
  const seen = new Set<string>();
  const report = (problem: string) => {
    if (!problems.includes(problem)) problems.push(problem);
  };

  function responseOf(operation: Operation, status: number): Json | undefined {
    const response = operation.responses[String(status)];
    const ref = response?.$ref;
    if (typeof ref !== 'string') return response;
    return doc.components.responses[ref.replace('#/components/responses/', '')];
  }

  function validator(key: string, schema: Json): ValidateFunction {
    let validate = validators.get(key);
    if (!validate) {
      // The schema's refs point into #/components: compile it with the components beside it.
      validate = ajv.compile({ ...schema, components: doc.components });
      validators.set(key, validate);
    }
    return validate;
  }

  return {
    problems,
    seen,
    check({ method, url, status, headers, body }) {
      const path = url.split('?')[0]!;
      const route = routes.find((r) => r.method === method && r.pattern.test(path));
      if (!route) return; // not an operation: unknown paths, HEAD, the local upload target
      const where = `${method} ${path} → ${status}`;
      const { operationId } = route.operation;
      seen.add(`${operationId} ${status}`);
      const response = responseOf(route.operation, status);
      if (!response) {
        report(`${where}: status not documented for ${operationId} (body ${body.slice(0, 200)})`);
        return;
      }
      if (status === 429 && headers['retry-after'] === undefined) report(`${where}: no Retry-After`);
      const documentedHeaders = Object.keys((response.headers ?? {}) as Json).map((h) => h.toLowerCase());
      if (headers['x-next-cursor'] !== undefined && !documentedHeaders.includes('x-next-cursor')) {
        report(`${where}: X-Next-Cursor on an operation that does not document it`);
      }
      const schema = (response.content as Record<string, { schema: Json }> | undefined)?.['application/json']
        ?.schema;
      if (!schema) {
        if (body.length > 0) report(`${where}: a body where none is documented`);
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        report(`${where}: body is not JSON: ${body.slice(0, 200)}`);
        return;
      }
      const validate = validator(`${operationId} ${status}`, schema);
      if (!validate(value)) {
        const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
        report(`${where}: body does not match the document: ${errors}`);
      }
    },
  };
}
