import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SRC = path.resolve(__dirname, '../../../src');
const MODULES = path.join(SRC, 'modules');

const parse = (file: string): ts.SourceFile =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

const hasExport = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** The names a front door exports. */
function exportsOf(frontDoor: string): string[] {
  const names: string[] = [];
  for (const statement of parse(frontDoor).statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause === undefined || !ts.isNamedExports(statement.exportClause))
        throw new Error(`${frontDoor}: name what a front door exports`);
      names.push(...statement.exportClause.elements.map((element) => element.name.text));
    } else if (ts.isVariableStatement(statement) && hasExport(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if (
      (ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      hasExport(statement) &&
      statement.name !== undefined
    ) {
      names.push(statement.name.text);
    }
  }
  return names;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The module whose front door `specifier` (relative to `file`) names, or null. */
function frontDoorModule(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = path.relative(MODULES, path.resolve(path.dirname(file), specifier)).split(path.sep);
  return target.length === 2 && target[1].replace(/\.(js|ts)$/, '') === 'index' ? target[0] : null;
}

/** The module a source file belongs to (null outside src/modules). */
function moduleOf(file: string): string | null {
  const parts = path.relative(MODULES, file).split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : null;
}

/** For each module, the names of its front door that src files outside the module import. */
function importedByOtherModules(): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const visit = (node: ts.Node): void => {
      const clause =
        ts.isImportDeclaration(node) || ts.isExportDeclaration(node) ? node.moduleSpecifier : undefined;
      const isDynamic = ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const specifier = isDynamic ? node.arguments[0] : clause;
      if (specifier !== undefined && ts.isStringLiteral(specifier)) {
        const target = frontDoorModule(file, specifier.text);
        if (target !== null && target !== moduleOf(file)) {
          if (isDynamic) throw new Error(`${file}: a dynamic import of a front door is not analysed`);
          const names = used.get(target) ?? new Set<string>();
          used.set(target, names);
          for (const name of importedNames(file, node as ts.ImportDeclaration | ts.ExportDeclaration))
            names.add(name);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(file));
  }
  return used;
}

function importedNames(file: string, node: ts.ImportDeclaration | ts.ExportDeclaration): string[] {
  const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
  if (bindings === undefined || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings))
    throw new Error(`${file}: import a front door's names one by one`);
  return bindings.elements.map((element) => (element.propertyName ?? element.name).text);
}

describe('front doors', () => {
  const used = importedByOtherModules();
  const modules = readdirSync(MODULES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it.each(modules)('%s exports only names another part of src imports', (name) => {
    const unused = exportsOf(path.join(MODULES, name, 'index.ts')).filter(
      (exported) => !(used.get(name)?.has(exported) ?? false),
    );
    expect(unused).toEqual([]);
  });
});
