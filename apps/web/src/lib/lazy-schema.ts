/**
 * A form's zod schema from `@cubes/api/schemas`, loaded when the form first needs it, not with its
 * page: that chunk holds zod (about 28 KB Brotli), which neither the first page (the home
 * composer) nor a rendered post page (its comment box) can afford before they paint. One load is
 * shared by every form; a failed one (offline for a moment) is asked for again next time.
 */
import { loadErrorTexts } from './error-text';

type Schemas = typeof import('@cubes/api/schemas');

let schemas: Promise<Schemas> | undefined;

function loadSchemas(): Promise<Schemas> {
  // The texts of the schemas' messages in the active language come along (lib/error-text.ts).
  void loadErrorTexts().catch(() => undefined);
  schemas ??= import('@cubes/api/schemas').catch((error: unknown) => {
    schemas = undefined;
    throw error;
  });
  return schemas;
}

/** A loader of schema `name`, for useZodForm. */
export function lazySchema<K extends keyof Schemas>(name: K): () => Promise<Schemas[K]> {
  return () => loadSchemas().then((loaded) => loaded[name]);
}
