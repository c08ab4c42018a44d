/**
 * Results that are shared between requests (the cached first feed page) are registered here, so
 * a host can encode each of them to JSON once instead of once per request: 1.5 to 2 times the
 * feed's throughput (bench/README.md). A registered value must not change afterwards, or its bytes
 * would go stale; the feed cache never edits a page, it makes new objects for a viewer's copy.
 * The host's compressed copies of that JSON (Brotli, gzip) are kept beside it the same way
 * (`sharedEncoded`), made once and gone with the value.
 */
const registered = new WeakMap<object, Buffer | null>();
/** The JSON sharedJson made, each with its compressed copies by content coding. */
const encodings = new WeakMap<Buffer, Map<string, Buffer>>();

/** Marks `value` (and each object directly inside it) as shared, and returns it. */
export function markShared<T extends object>(value: T): T {
  registered.set(value, null);
  // Its direct parts too: the REST adapter sends a page's `items` array on its own.
  for (const part of Object.values(value)) {
    if (part !== null && typeof part === 'object' && !(part instanceof Date)) registered.set(part, null);
  }
  return value;
}

/** Whether `value` was marked shared (and so is never edited). */
export function isShared(value: object): boolean {
  return registered.has(value);
}

/**
 * The UTF-8 JSON of a value registered by markShared, encoded on first use and remembered;
 * undefined for any other value.
 */
export function sharedJson(value: unknown): Buffer | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const known = registered.get(value);
  if (known === undefined) return undefined;
  if (known !== null) return known;
  const json = Buffer.from(JSON.stringify(value));
  registered.set(value, json);
  encodings.set(json, new Map());
  return json;
}

/**
 * The copy of `json` in a content coding (`br`, `gzip`), when `json` is the bytes sharedJson
 * returned for a shared value: made by `encode` on first use and kept beside the JSON for as
 * long as that is kept. Undefined for any other bytes, which the caller encodes itself.
 */
export function sharedEncoded(
  json: Buffer,
  coding: string,
  encode: (json: Buffer) => Buffer,
): Buffer | undefined {
  const copies = encodings.get(json);
  if (copies === undefined) return undefined;
  let copy = copies.get(coding);
  if (copy === undefined) {
    copy = encode(json);
    copies.set(coding, copy);
  }
  return copy;
}

/**
 * The result without its nextCursor (which a REST row sends as a header), as one object per result:
 * for a shared result the body is shared too, made and encoded once rather than per request.
 */
const bodies = new WeakMap<object, object>();
export function withoutCursor<T extends { nextCursor: string | null }>(result: T): Omit<T, 'nextCursor'> {
  const known = bodies.get(result);
  if (known) return known as Omit<T, 'nextCursor'>;
  const { nextCursor: _, ...body } = result;
  if (registered.has(result)) bodies.set(result, markShared(body));
  return body;
}
