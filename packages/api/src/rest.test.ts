/**
 * The REST table is every module's rows: a `*.rest.ts` that rest.ts forgot to collect would serve
 * nothing and leave its procedures out of the OpenAPI document. (That a module's rows name its own
 * procedures, and fields of their inputs, the compiler checks: `RestRowOf<'<domain>'>`.)
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { restRows } from './rest.js';

const modules = fileURLToPath(new URL('./modules/', import.meta.url));

describe('the REST table', () => {
  it('collects the rows of every module, each once', async () => {
    const files = readdirSync(modules, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.rest.ts'),
    );
    expect(files.length).toBeGreaterThan(10);
    const fromModules: unknown[] = [];
    for (const file of files) {
      const exported: Record<string, unknown> = await import(path.join(modules, file));
      for (const rows of Object.values(exported)) {
        expect(Array.isArray(rows), file).toBe(true);
        fromModules.push(...(rows as unknown[]));
      }
    }
    expect(restRows).toHaveLength(fromModules.length);
    expect(new Set(restRows)).toEqual(new Set(fromModules));
  });
});
