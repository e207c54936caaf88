import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { ERROR_STATUS } from '../../src/common/errors/error-status';
import type { ErrorKind } from '../../src/common/errors/domain-error';

const SRC = path.resolve(__dirname, '../../src');
const CODE_SHAPE = /^[a-z][a-z_]*\.[a-z][a-z0-9_]*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

export interface DeclaredCodes {
  /** Every code string written in a `*.errors.ts` file. */
  codes: Set<string>;
  /** The HTTP statuses each code is raised with, from `new DomainError('<kind>', X.KEY, …)` anywhere in src. */
  statuses: Map<string, Set<number>>;
}

/**
 * Read from the source, not from the running app, so that a code its module forgot to declare
 * (`declareErrorCodes`) is still found.
 */
export function declaredCodesInSource(): DeclaredCodes {
  const files = sourceFiles(SRC).map((file) => ({
    file,
    source: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
  }));
  const codes = new Set<string>();
  const byConstant = new Map<string, string>();
  for (const { source } of files.filter(({ file }) => file.endsWith('.errors.ts'))) {
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) && CODE_SHAPE.test(node.text)) codes.add(node.text);
      if (
        ts.isPropertyAssignment(node) &&
        ts.isStringLiteral(node.initializer) &&
        CODE_SHAPE.test(node.initializer.text)
      ) {
        let holder: ts.Node = node.parent.parent;
        while (
          ts.isAsExpression(holder) ||
          ts.isCallExpression(holder) ||
          ts.isParenthesizedExpression(holder)
        ) {
          holder = holder.parent;
        }
        if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) {
          byConstant.set(`${holder.name.text}.${node.name.getText(source)}`, node.initializer.text);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const statuses = new Map<string, Set<number>>();
  for (const { source } of files) {
    const visit = (node: ts.Node): void => {
      const isRaise =
        (ts.isNewExpression(node) && node.expression.getText(source) === 'DomainError') ||
        (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword);
      const args = (node as ts.NewExpression | ts.CallExpression).arguments;
      if (isRaise && args !== undefined && args.length >= 2 && ts.isStringLiteral(args[0])) {
        const code = byConstant.get(args[1].getText(source));
        const status = ERROR_STATUS[args[0].text as ErrorKind];
        if (code !== undefined && status !== undefined) {
          statuses.set(code, new Set([...(statuses.get(code) ?? []), status]));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { codes, statuses };
}
