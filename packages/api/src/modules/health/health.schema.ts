/** The health check's response (see post.schema.ts on response schemas). Imports only zod. */
import { z } from 'zod';

/** `ok` is false (and the REST status 503) when the database does not answer. */
export const healthResult = z.strictObject({ ok: z.boolean(), db: z.boolean() });
