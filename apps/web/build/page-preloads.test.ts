import { describe, expect, it } from 'vitest';
import { LAZY_PAGES } from '../src/routes/pages.ts';
import { PAGE_PRELOADS_FILE, type PagePreloads, pagePreloads } from './page-preloads.ts';

type FakeChunk = {
  type: 'chunk';
  fileName: string;
  imports: string[];
  isEntry: boolean;
  facadeModuleId: string | null;
};

const chunk = (
  fileName: string,
  imports: string[],
  facadeModuleId: string | null = null,
  isEntry = false,
): FakeChunk => ({
  type: 'chunk',
  fileName,
  imports,
  isEntry,
  facadeModuleId,
});

/** Runs the plugin's generateBundle on `chunks` and returns the file it emits. */
function run(chunks: FakeChunk[]): PagePreloads {
  const bundle = Object.fromEntries(chunks.map((c) => [c.fileName, c]));
  const emitted: { fileName: string; source: string }[] = [];
  const plugin = pagePreloads();
  const generate = plugin.generateBundle as (this: unknown, options: unknown, bundle: unknown) => void;
  generate.call({ emitFile: (file: { fileName: string; source: string }) => emitted.push(file) }, {}, bundle);
  expect(emitted.map((file) => file.fileName)).toEqual([PAGE_PRELOADS_FILE]);
  return JSON.parse(emitted[0]!.source) as PagePreloads;
}

/** A bundle with a chunk for every lazy page, importing only the first script's own chunk. */
function pageChunks(): FakeChunk[] {
  return LAZY_PAGES.map(({ module }) =>
    chunk(`assets/${module}-h.js`, ['assets/react-h.js'], `/app/src/routes/${module}.tsx`),
  );
}

describe('page-preloads (build)', () => {
  it("lists each lazy page's chunk and what it imports at any depth, but not what the first script brings", () => {
    const { pages } = run([
      chunk('assets/index-h.js', ['assets/react-h.js', 'assets/cn-h.js'], '/app/index.html', true),
      chunk('assets/react-h.js', []),
      chunk('assets/cn-h.js', ['assets/react-h.js']),
      chunk('assets/schemas-h.js', ['assets/cn-h.js', 'assets/zod-h.js']),
      chunk('assets/zod-h.js', []),
      ...pageChunks().map((c) =>
        c.fileName === 'assets/search-h.js'
          ? { ...c, imports: ['assets/index-h.js', 'assets/schemas-h.js'] }
          : c,
      ),
    ]);
    expect(pages.map((page) => page.path)).toEqual(LAZY_PAGES.map((page) => page.path));
    expect(pages.find((page) => page.path === 'search')?.files).toEqual([
      '/assets/search-h.js',
      '/assets/schemas-h.js',
      '/assets/zod-h.js',
    ]);
    expect(pages.find((page) => page.path === 'profile/:username')?.files).toEqual([
      '/assets/user-profile-h.js',
    ]);
  });

  it('stops the build when a page of routes/pages.ts has no chunk', () => {
    const chunks = [chunk('assets/index-h.js', [], '/app/index.html', true), ...pageChunks().slice(1)];
    expect(() => run(chunks)).toThrow(/no chunk for src\/routes\/auth\.tsx/);
  });
});
