/**
 * Keeps the documents honest: every relative link in README.md, docs/ and bench/ leads to a file
 * that exists, and every #anchor to a heading of its target; README.md stays under 150 lines; and
 * docs/api.md's table of tRPC-only procedures names exactly the procedures without a REST row.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRouter, restRows } from '@cubes/api';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** README.md, docs/**\/*.md and bench/*.md, relative to the repository's root. */
function documents(): string[] {
  const files = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  for (const name of readdirSync(path.join(root, 'bench')))
    if (name.endsWith('.md')) files.push(`bench/${name}`);
  return files;
}

/** The text outside fenced code blocks, line by line (a fence's lines become empty). */
function prose(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(```|~~~)/.exec(line);
    if (opening) {
      if (fence === null) fence = opening[1]!;
      else if (line.trim().startsWith(fence)) fence = null;
      return '';
    }
    return fence === null ? line : '';
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link keeps its text
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a document's headings, repeated ones numbered as GitHub does (-1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The targets of inline links and images, and of reference definitions, outside code. */
function linkTargets(markdown: string): { line: number; target: string }[] {
  const targets: { line: number; target: string }[] = [];
  prose(markdown).forEach((text, i) => {
    const line = text.replace(/`[^`]*`/g, '');
    for (const match of line.matchAll(/!?\[(?:[^\]]|\][^(])*?\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      targets.push({ line: i + 1, target: match[1]! });
    const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(line);
    if (reference) targets.push({ line: i + 1, target: reference[1]! });
  });
  return targets;
}

/** What is wrong with each relative link of `file`; external links and absolute paths are not ours. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const problems: string[] = [];
  for (const { line, target } of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    const hash = target.indexOf('#');
    const filePart = decodeURI(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const resolved = filePart === '' ? file : path.normalize(path.join(path.dirname(file), filePart));
    const where = `${file}:${line}: ${target}`;
    if (resolved.startsWith('..') || !existsSync(path.join(root, resolved))) {
      problems.push(`${where} (no file ${resolved})`);
      continue;
    }
    if (anchor === null || anchor === '') continue;
    if (!resolved.endsWith('.md') || statSync(path.join(root, resolved)).isDirectory()) {
      problems.push(`${where} (an anchor into a file that is not Markdown)`);
      continue;
    }
    if (!anchors(readFileSync(path.join(root, resolved), 'utf8')).has(anchor))
      problems.push(`${where} (no heading #${anchor} in ${resolved})`);
  }
  return problems;
}

describe('the documents', () => {
  it('makes anchors and finds links as GitHub does', () => {
    expect(slug('Issue #27: before and after')).toBe('issue-27-before-and-after');
    expect(slug('Cubey, the AI assistant')).toBe('cubey-the-ai-assistant');
    expect(slug('Search answers cached (`search-cache.ts`)')).toBe('search-answers-cached-search-cachets');
    expect(slug('Soak — 10 minutes')).toBe('soak--10-minutes');
    const sample =
      '# A\n## B\n## B\n```\n## not a heading [x](gone.md)\n```\nSee [b](#b-1) and `[c](gone.md)`.';
    expect([...anchors(sample)]).toEqual(['a', 'b', 'b-1']);
    expect(linkTargets(sample)).toEqual([{ line: 7, target: '#b-1' }]);
    expect(linkTargets('![img](images/x.png "title") [r]: ../a.md#x')).toEqual([
      { line: 1, target: 'images/x.png' },
    ]);
    expect(linkTargets('[r]: ../a.md#x')).toEqual([{ line: 1, target: '../a.md#x' }]);
  });

  it('every relative link leads to a file, and every anchor to a heading', () => {
    const files = documents();
    // The walk found the documents, so an empty list cannot pass.
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'bench/README.md']));
    const links = files.flatMap((file) => linkTargets(readFileSync(path.join(root, file), 'utf8')));
    expect(links.length).toBeGreaterThan(50);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it('README.md stays under 150 lines', () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThan(150);
  });

  it("docs/api.md's table of tRPC-only procedures names exactly those without a REST row", () => {
    const withRow = new Set<string>(restRows.map((route) => route.procedure));
    const without = Object.keys(appRouter._def.procedures)
      .filter((name) => !withRow.has(name))
      .sort();
    const api = readFileSync(path.join(root, 'docs/api.md'), 'utf8');
    const section = api.split(/^## /m).find((part) => part.startsWith('tRPC-only procedures'));
    expect(section).toBeDefined();
    const listed = [...section!.matchAll(/^\| `([a-zA-Z]+\.[a-zA-Z]+)` \|/gm)].map((m) => m[1]!).sort();
    expect(listed).toEqual(without);
  });
});
