/**
 * The build's chunk graph, walked once for both of its readers: the page-preloads plugin (on
 * Rollup's bundle, while building) and scripts/initial-js.ts (on dist/.vite/manifest.json, after).
 */

/**
 * `start` and every chunk it imports statically, at any depth: what a browser fetches before it
 * can run `start`. `importsOf` gives a chunk's static imports by the same key (a file name or a
 * manifest key); `into` gathers several closures into one set.
 */
export function staticClosure(
  start: string,
  importsOf: (key: string) => readonly string[] | undefined,
  into = new Set<string>(),
): Set<string> {
  if (into.has(start)) return into;
  into.add(start);
  for (const next of importsOf(start) ?? []) staticClosure(next, importsOf, into);
  return into;
}
