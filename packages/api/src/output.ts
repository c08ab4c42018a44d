/**
 * A procedure's answer, declared once: `.output(output(postPage))`. The zod schema is the type the
 * service returns (`z.output<typeof postPage>`), the shape the REST table and the OpenAPI document
 * describe, and a check at run time: an answer that does not match is a 500, and a field the
 * schema does not name never leaves the server.
 *
 * The check on a shared answer (shared-json.ts: a kept first page, the same object for thousands
 * of requests) runs once per object, not once per request: such an answer is never edited, so the
 * checked copy is kept beside it and marked shared in turn, and the host still encodes it to JSON
 * once.
 */
import { z } from 'zod';
import { isShared, markShared } from './shared-json.js';

/** The checked copy of each shared answer already seen. */
const checked = new WeakMap<object, unknown>();

/** An output parser for tRPC that carries its schema (`.schema`) for the REST table and OpenAPI. */
export type OutputParser<S extends z.ZodType> = ((value: unknown) => z.output<S>) & { readonly schema: S };

export function output<S extends z.ZodType>(schema: S): OutputParser<S> {
  const parse = (value: unknown): z.output<S> => {
    if (value === null || typeof value !== 'object' || !isShared(value)) return schema.parse(value);
    const known = checked.get(value);
    if (known !== undefined) return known as z.output<S>;
    const copy = schema.parse(value);
    if (copy !== null && typeof copy === 'object') markShared(copy);
    checked.set(value, copy);
    return copy;
  };
  return Object.assign(parse, { schema });
}

/** The schema of a procedure's `.output(output(schema))`, or undefined when it declares none. */
export function outputSchemaOf(procedure: { _def: object }): z.ZodType | undefined {
  const parser = (procedure._def as { output?: Partial<OutputParser<z.ZodType>> }).output;
  return parser?.schema;
}

/** What a timestamp looks like in REST JSON and the OpenAPI document (zod's ISO datetime). */
const { $schema: _dialect, ...isoDatetimeJson } = z.toJSONSchema(z.iso.datetime());

/**
 * A point in time in an answer: a Date in the service and over tRPC (superjson keeps it a Date for
 * the web), ISO 8601 text in REST JSON (`JSON.stringify` writes a Date so), which is what the
 * OpenAPI document says. `z.iso.datetime()` would refuse the Date; `z.date()` alone has no JSON
 * Schema.
 */
export function timestamp(): z.ZodDate {
  const schema = z.date();
  schema._zod.toJSONSchema = () => ({ ...isoDatetimeJson });
  return schema;
}
