/**
 * The app router's procedures as the REST layer sees them: found by dotted path, with the JSON
 * Schema of their zod input. The adapter reads which query fields are numbers from it and the
 * OpenAPI document describes parameters and bodies with it, so both follow the same schema.
 */
import { appRouter, outputSchemaOf } from '@cubes/api';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { z } from 'zod';

export function procedureExists(router: AnyRouter, path: string): boolean {
  return Object.hasOwn(router._def.procedures, path);
}

export function procedureAt(path: string): AnyProcedure {
  const router: AnyRouter = appRouter;
  if (!procedureExists(router, path)) throw new Error(`REST route: no procedure ${path}`);
  return router._def.procedures[path] as AnyProcedure;
}

/** A JSON Schema object (2020-12), as zod writes it. */
export type JsonSchema = { [key: string]: unknown };

/**
 * The JSON Schema of what a client may send to the procedure (zod's input side: defaults make
 * fields optional), or null when it takes no input.
 */
export function inputJsonSchema(procedure: AnyProcedure): JsonSchema | null {
  const inputs = procedure._def.inputs;
  if (inputs.length === 0) return null;
  if (inputs.length > 1 || !(inputs[0] instanceof z.ZodType)) {
    throw new Error('REST routes describe procedures with exactly one zod input');
  }
  return z.toJSONSchema(inputs[0], { io: 'input' }) as JsonSchema;
}

/** The input schema's top-level properties (a procedure's input is an object or nothing). */
export function inputProperties(schema: JsonSchema | null): Record<string, JsonSchema> {
  return (schema?.properties ?? {}) as Record<string, JsonSchema>;
}

/**
 * The schema of a REST row's JSON body, from its procedure's `.output()`: the whole answer, or for
 * a paged row the schema of one item (`paged: true`, the body is the items) or the answer without
 * its cursor (`paged: 'object'`); the cursor travels in X-Next-Cursor.
 */
export function answerSchema(route: { procedure: string; paged?: true | 'object' }): z.ZodType {
  const schema = outputSchemaOf(procedureAt(route.procedure));
  if (!schema) throw new Error(`REST route: ${route.procedure} declares no .output()`);
  if (route.paged === undefined) return schema;
  if (!(schema instanceof z.ZodObject) || !('nextCursor' in schema.shape)) {
    throw new Error(`REST route: ${route.procedure} is paged but its output has no nextCursor`);
  }
  if (route.paged === 'object') return schema.omit({ nextCursor: true });
  const items = schema.shape.items;
  if (!(items instanceof z.ZodArray)) throw new Error(`REST route: ${route.procedure}'s page has no items`);
  return items.element as z.ZodType;
}
