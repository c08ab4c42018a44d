/** A REST row's path, as the adapter registers it and the OpenAPI document describes it. */

/** The path's `:name` parameters, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}
