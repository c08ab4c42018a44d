/**
 * Results that are shared between requests (the cached first feed page) are deep-frozen and
 * registered here, so a host can encode each of them to JSON once instead of once per request.
 * Nothing may change a registered value afterwards; freezing makes that hold for plain objects
 * and arrays, and the Dates inside are never written to.
 */
const registered = new WeakMap<object, Buffer | null>();

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || value instanceof Date) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

/** Freezes `value` deeply and marks it (and each object directly inside it) as shared. */
export function shareImmutable<T extends object>(value: T): T {
  deepFreeze(value);
  registered.set(value, null);
  // Its direct parts too: the REST adapter sends a page's `items` array on its own.
  for (const part of Object.values(value)) {
    if (part !== null && typeof part === 'object' && !(part instanceof Date)) registered.set(part, null);
  }
  return value;
}

/**
 * The UTF-8 JSON of a value registered by shareImmutable, encoded on first use and remembered;
 * undefined for any other value.
 */
export function sharedJson(value: unknown): Buffer | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const known = registered.get(value);
  if (known === undefined) return undefined;
  if (known !== null) return known;
  const json = Buffer.from(JSON.stringify(value));
  registered.set(value, json);
  return json;
}
