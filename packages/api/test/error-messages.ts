/**
 * Finds every English message the API can answer with, in its source: the arguments of errors.ts's
 * helpers (and of the server's sendError bodies and framework answers), the messages of the zod
 * schemas (`message`/`error` params, the message argument of checks like `.min(1, '…')`) and the
 * "… contains characters that are not allowed" of every `text('Label')` field, and the messages of
 * Cubey's provider failures (`new ProviderError(…)`). Used by
 * error-reasons.test.ts to hold each one to a reason of error-reasons.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FoundMessage {
  file: string;
  line: number;
  /** The message, when the source fixes it (a literal, a template over constants, a constant). */
  text?: string;
  /** Uses ERROR_REASONS.X directly. */
  reason?: string;
  /** The expression, when it is not resolved to a fixed text. */
  source: string;
}

const HELPERS = new Set([
  'badRequest',
  'unauthorized',
  'forbidden',
  'notFound',
  'conflict',
  'gone',
  'tooManyRequests',
  'badGateway',
  'serviceUnavailable',
]);
/** zod checks whose string argument after the first is their message. */
const CHECKS = new Set([
  'min',
  'max',
  'length',
  'regex',
  'refine',
  'startsWith',
  'endsWith',
  'includes',
  'gte',
  'lte',
  'gt',
  'lt',
]);
/** zod checks whose first argument is their message. */
const FIRST_ARG_CHECKS = new Set([
  'email',
  'url',
  'uuid',
  'nonempty',
  'int',
  'positive',
  'nonnegative',
  'httpUrl',
]);
/** Not answers: the server's settings at start-up, and the tool errors Cubey's model reads. */
const SKIPPED = [/apps\/server\/src\/env\.ts$/, /cubey\.tools\.ts$/];

/** A message written as a message: a literal, a template, a constant or ERROR_REASONS.X (not a schema). */
function messageLike(node: ts.Expression): boolean {
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateExpression(node) ||
    (ts.isIdentifier(node) && !node.text.endsWith('Schema')) ||
    ts.isConditionalExpression(node) ||
    (ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      !['z'].includes(node.expression.text)) ||
    (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'ERROR_REASONS') ||
    ts.isElementAccessExpression(node)
  );
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

interface Source {
  path: string;
  file: ts.SourceFile;
  isSchema: boolean;
}

/** The top-level `const NAME = …` initializers of all scanned files, by name. */
function constants(sources: Source[]): Map<string, ts.Expression[]> {
  const found = new Map<string, ts.Expression[]>();
  for (const { file } of sources) {
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer) {
          found.set(d.name.text, [...(found.get(d.name.text) ?? []), d.initializer]);
        }
      }
    }
  }
  return found;
}

export function findMessages(root: string, dirs: string[], table: Record<string, string>): FoundMessage[] {
  const sources: Source[] = dirs.flatMap((dir) =>
    files(join(root, dir))
      .filter((path) => !SKIPPED.some((re) => re.test(path)))
      .map((path) => {
        const text = readFileSync(path, 'utf8');
        return {
          path,
          file: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true),
          isSchema: /from 'zod'|from '(\.\.\/)*(\.\/)?text\.js'/.test(text),
        };
      }),
  );
  const consts = constants(sources);

  /** The fixed text of an expression, or undefined when it varies. */
  function evaluate(node: ts.Expression, depth = 0): string | undefined {
    if (depth > 5) return undefined;
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
      return evaluate(node.expression, depth + 1);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return String(Number(node.text));
    if (ts.isTemplateExpression(node)) {
      let out = node.head.text;
      for (const span of node.templateSpans) {
        const value = evaluate(span.expression, depth + 1);
        if (value === undefined) return undefined;
        out += value + span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(node)) {
      const left = evaluate(node.left, depth + 1);
      const right = evaluate(node.right, depth + 1);
      if (left === undefined || right === undefined) return undefined;
      const [a, b] = [Number(left), Number(right)];
      switch (node.operatorToken.kind) {
        case ts.SyntaxKind.PlusToken:
          return Number.isNaN(a) || Number.isNaN(b) ? left + right : String(a + b);
        case ts.SyntaxKind.AsteriskToken:
          return String(a * b);
        case ts.SyntaxKind.SlashToken:
          return String(a / b);
        case ts.SyntaxKind.MinusToken:
          return String(a - b);
        default:
          return undefined;
      }
    }
    if (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'ERROR_REASONS') {
      return table[node.name.text];
    }
    if (ts.isIdentifier(node)) {
      const inits = consts.get(node.text);
      if (!inits) return undefined;
      const values = new Set(inits.map((init) => evaluate(init, depth + 1)));
      return values.size === 1 ? [...values][0] : undefined;
    }
    return undefined;
  }

  const found: FoundMessage[] = [];
  for (const { path, file, isSchema } of sources) {
    const add = (node: ts.Expression, text?: string): void => {
      // `a ? X : Y`: each branch is a message of its own.
      if (text === undefined && ts.isConditionalExpression(node)) {
        add(node.whenTrue);
        add(node.whenFalse);
        return;
      }
      if (text === undefined && ts.isParenthesizedExpression(node)) {
        add(node.expression);
        return;
      }
      const reason =
        ts.isPropertyAccessExpression(node) && node.expression.getText() === 'ERROR_REASONS'
          ? node.name.text
          : undefined;
      found.push({
        file: relative(root, path),
        line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1,
        text: text ?? evaluate(node),
        reason,
        source: node.getText(),
      });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isIdentifier(callee)
          ? callee.text
          : ts.isPropertyAccessExpression(callee)
            ? callee.name.text
            : '';
        const args = node.arguments;
        if (ts.isIdentifier(callee) && HELPERS.has(name) && args[0] && !path.endsWith('api/src/errors.ts')) {
          add(args[0]);
        } else if (name === 'requireUuid' && args[1]) {
          add(args[1]);
        } else if (name === 'sendError' && args[2] && ts.isObjectLiteralExpression(args[2])) {
          for (const p of args[2].properties) {
            if (ts.isPropertyAssignment(p) && p.name.getText() === 'message') add(p.initializer);
          }
        } else if (isSchema && ts.isIdentifier(callee) && name === 'text' && args[0]) {
          const label = evaluate(args[0]);
          add(args[0], label === undefined ? undefined : `${label} contains characters that are not allowed`);
        } else if (isSchema && ts.isPropertyAccessExpression(callee) && CHECKS.has(name)) {
          const message = args[1];
          if (message && messageLike(message)) add(message);
        } else if (isSchema && ts.isPropertyAccessExpression(callee) && FIRST_ARG_CHECKS.has(name)) {
          if (args[0] && messageLike(args[0])) add(args[0]);
        }
      }
      // Cubey's provider failures, whose message the answer shows (cubey.runtime.ts).
      if (ts.isNewExpression(node) && node.expression.getText() === 'ProviderError' && node.arguments?.[0]) {
        add(node.arguments[0]);
      }
      if (
        isSchema &&
        ts.isPropertyAssignment(node) &&
        ['message', 'error'].includes(node.name.getText()) &&
        ts.isObjectLiteralExpression(node.parent) &&
        ts.isCallExpression(node.parent.parent) &&
        messageLike(node.initializer)
      ) {
        add(node.initializer);
      }
      // The server's framework answers: `[400, 'Request body is not valid JSON']`.
      if (
        ts.isArrayLiteralExpression(node) &&
        node.elements.length === 2 &&
        ts.isNumericLiteral(node.elements[0]!) &&
        /^[45]\d\d$/.test(node.elements[0].text) &&
        messageLike(node.elements[1] as ts.Expression)
      ) {
        add(node.elements[1] as ts.Expression);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}
