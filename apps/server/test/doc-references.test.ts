/**
 * Source files point at documentation the repository has (README.md, docs/, the OpenAPI
 * document), never at the product and design notes kept outside it: a reader of the repository
 * cannot open those. Covers every tracked source file of the monorepo, not only the server's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|css)$/;
// Built from parts so this file does not cite them itself.
const OUTSIDE_DOCS = new RegExp(`\\b(${['SPEC', 'DESIGN'].join('|')})\\.md\\b`);
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report']);

/**
 * Files git tracks or would track (new ones too); without a checkout (a copied tree), every file
 * outside dependencies and build output.
 */
function sourceFiles(): string[] {
  try {
    const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard'];
    const out = execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    // A tracked file deleted in the working tree is not there to read.
    return out.split('\0').filter((file) => SOURCE.test(file) && existsSync(path.join(root, file)));
  } catch {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!entry.name.startsWith('.') && !SKIP_DIRS.has(entry.name)) walk(rel);
        } else if (SOURCE.test(entry.name)) files.push(rel);
      }
    };
    walk('');
    return files;
  }
}

describe('references to documentation', () => {
  it('recognises a citation of the outside notes', () => {
    expect(OUTSIDE_DOCS.test(`see ${'SPEC'}.md §2`)).toBe(true);
    expect(OUTSIDE_DOCS.test(`the ${'DESIGN'}.md table`)).toBe(true);
    expect(OUTSIDE_DOCS.test('see docs/web.md, "Toasts"')).toBe(false);
  });

  it('no source file cites notes that live outside the repository', () => {
    const files = sourceFiles();
    // The walk really found the sources (this file among them), so an empty list cannot pass.
    expect(files).toContain(path.join('apps', 'server', 'test', 'doc-references.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE_DOCS.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    // Point at README.md, docs/api.md, docs/web.md or GET /api/openapi.json instead.
    expect(offenders).toEqual([]);
  });
});
