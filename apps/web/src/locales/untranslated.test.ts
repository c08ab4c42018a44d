/**
 * No user-facing English outside the catalogs (issue #50): every JSX text with a letter in it is
 * inside a Lingui macro (<Trans>, <Plural>, <Select>), and no label-like prop or property
 * (`aria-label`, `placeholder`, `title`, `alt`, `label`, `description`…) is a string literal with
 * words in it. New code that writes English inline fails here, with the file, line and text.
 *
 * Read from the source with TypeScript's parser: the macros are gone after the build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Lingui's JSX macros: text inside them is a message. */
const MACROS = new Set(['Trans', 'Plural', 'Select', 'SelectOrdinal']);
/** Props and object properties whose string is shown or read out to a person. */
const LABELS = new Set([
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'placeholder',
  'title',
  'alt',
  'label',
  'description',
]);
/** Names that are not translated (issue #50) and text that is not words. */
const ALLOWED = new Set(['Cubes', 'Cubey', 'CUBE3', 'Cubes AI']);
const LETTER = /\p{L}/u;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'test' || entry.name === 'locales' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

function words(text: string): boolean {
  const trimmed = text.trim();
  return LETTER.test(trimmed) && !ALLOWED.has(trimmed);
}

function tagName(node: ts.JsxElement | ts.JsxSelfClosingElement): string {
  const tag = ts.isJsxElement(node) ? node.openingElement.tagName : node.tagName;
  return tag.getText();
}

function insideMacro(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if ((ts.isJsxElement(parent) || ts.isJsxSelfClosingElement(parent)) && MACROS.has(tagName(parent)))
      return true;
  }
  return false;
}

/** A string literal (or a template without substitutions) holding words. */
function literalWords(node: ts.Node | undefined): string | null {
  if (!node) return null;
  if (ts.isJsxExpression(node)) return literalWords(node.expression);
  if (ts.isParenthesizedExpression(node)) return literalWords(node.expression);
  if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && words(node.text))
    return node.text;
  return null;
}

export function untranslated(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${path.relative(SRC, file)}:${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && words(node.text) && !insideMacro(node))
      at(node, JSON.stringify(node.text.trim()));
    if (ts.isJsxAttribute(node) && LABELS.has(node.name.getText())) {
      const value = literalWords(node.initializer);
      if (value !== null) at(node, `${node.name.getText()}=${JSON.stringify(value)}`);
    }
    if (ts.isPropertyAssignment(node) && LABELS.has(node.name.getText().replace(/['"]/g, ''))) {
      const value = literalWords(node.initializer);
      if (value !== null) at(node, `${node.name.getText()}: ${JSON.stringify(value)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('user-facing text', () => {
  it('finds English written inline (the check itself)', () => {
    const found = untranslated(
      path.join(SRC, 'example.tsx'),
      `import { Trans } from '@lingui/react/macro';
       const options = [{ label: 'Newest' }, { label: msg\`Oldest\` }];
       export const A = () => <p title="Hello" aria-label={t\`Fine\`}>Inline <Trans>Fine <b>too</b></Trans> Cubey</p>;`,
    );
    expect(found).toEqual([
      'example.tsx:2: label: "Newest"',
      'example.tsx:3: title="Hello"',
      'example.tsx:3: "Inline"',
    ]);
  });

  it('is all in the catalogs', () => {
    const found = sourceFiles(SRC).flatMap((file) => untranslated(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
