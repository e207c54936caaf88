import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * Error codes are a stable API contract (`<module>.<snake_case>`): each is written once, as a constant in
 * its module's `*.errors.ts`, and everything else uses the constant. This scans the string and template
 * literals of `src/**\/*.ts` (comments are not literals: a comment may name a code).
 */
const src = path.resolve(__dirname, '../../../src');

/**
 * Where each prefix's codes are defined. Known before any `*.errors.ts` defines one, so that a module
 * writing codes without an errors file is caught too. `auth.*` sits in `src/common/auth`: the HTTP
 * fallback mapping and the Swagger defaults (infrastructure, which imports no module) name them.
 */
const OWNER: Record<string, string> = {
  common: 'common/errors/common.errors.ts',
  http_safety: 'common/http-safety/http-safety.errors.ts',
  auth: 'common/auth/auth.errors.ts',
  api_keys: 'modules/auth/auth.errors.ts',
  users: 'modules/users/users.errors.ts',
  departments: 'modules/users/users.errors.ts',
  agents: 'modules/agents/agents.errors.ts',
  threads: 'modules/threads/threads.errors.ts',
  runs: 'modules/agent-runtime/runs/runs.errors.ts',
  agent_calls: 'modules/agent-runtime/agent-calls/agent-calls.errors.ts',
  models: 'modules/agent-runtime/model/model.errors.ts',
  tools: 'modules/tools/tools.errors.ts',
  workspace: 'modules/workspace/workspace.errors.ts',
  ocr: 'modules/ocr/ocr.errors.ts',
  improvement_marks: 'modules/improvement-marks/improvement-marks.errors.ts',
  artifacts: 'modules/artifacts/artifacts.errors.ts',
  web_search: 'modules/web-search/web-search.errors.ts',
  skills: 'modules/skills/skills.errors.ts',
  mcp: 'modules/mcp/mcp.errors.ts',
  subagents: 'modules/agent-runtime/subagents/subagents.errors.ts',
  usage: 'modules/agent-runtime/usage/usage.errors.ts',
  knowledge: 'modules/knowledge/knowledge.errors.ts',
  sandbox: 'modules/sandbox/sandbox.errors.ts',
  schedules: 'modules/schedules/schedules.errors.ts',
};
/** Prefixes of modules that have no codes in this codebase yet (named in the API contract). */
const FUTURE_PREFIXES: string[] = [];

const CODE_SHAPE = /^([a-z][a-z_]*)\.[a-z][a-z0-9_]*$/;

const isErrorsFile = (file: string) => file.endsWith('.errors.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface Literal {
  file: string;
  line: number;
  text: string;
}

function literalsOf(file: string, text = readFileSync(file, 'utf8')): Literal[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Literal[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ file: path.relative(src, file), line: line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(src);
const literals = files.flatMap((file) => literalsOf(file));
const definitions = literals.filter((l) => isErrorsFile(l.file) && CODE_SHAPE.test(l.text));
const prefixes = new Set([
  ...Object.keys(OWNER),
  ...FUTURE_PREFIXES,
  ...definitions.map((d) => CODE_SHAPE.exec(d.text)![1]),
]);
const escaped = [...prefixes].join('|');
/** A whole literal that is a code, or a code quoted in backticks inside a text (a Swagger description). */
const WHOLE = new RegExp(`^(?:${escaped})\\.[a-z][a-z0-9_]*$`);
const QUOTED = new RegExp(`\`(?:${escaped})\\.[a-z][a-z0-9_]*\``);

const codeStringsIn = (found: Literal[]) =>
  found
    .filter((l) => !isErrorsFile(l.file) && (WHOLE.test(l.text) || QUOTED.test(l.text)))
    .map((l) => `${l.file}:${l.line} ${JSON.stringify(l.text)}`);

describe('error codes', () => {
  it('finds the codes defined in the *.errors.ts files (the scan sees them)', () => {
    expect(definitions.map((d) => d.text)).toEqual(
      expect.arrayContaining(['common.validation_failed', 'threads.not_found', 'runs.lease_lost']),
    );
  });

  it('tells code strings from comments, SQL aliases and other dotted names', () => {
    const sample = [
      "// a comment may name 'threads.not_found'",
      "@ApiErrors([404, 'threads.not_found'])",
      'if (error.code === "runs.lease_lost") return;',
      'const text = `Codes: \\`auth.forbidden\\`.`;',
      "qb.select('a.slug').where('threads.owner_id = :id');",
      "workerScriptFor(__dirname, 'conversion.worker');",
    ].join('\n');
    expect(codeStringsIn(literalsOf(path.join(src, 'sample.ts'), sample))).toEqual([
      'sample.ts:2 "threads.not_found"',
      'sample.ts:3 "runs.lease_lost"',
      'sample.ts:4 "Codes: `auth.forbidden`."',
    ]);
  });

  it('writes no code string outside a *.errors.ts file', () => {
    expect(codeStringsIn(literals)).toEqual([]);
  });

  it('writes each code string once, in the *.errors.ts of the module its prefix names', () => {
    const byCode = new Map<string, string[]>();
    for (const d of definitions) byCode.set(d.text, [...(byCode.get(d.text) ?? []), `${d.file}:${d.line}`]);
    const repeated = [...byCode].filter(([, places]) => places.length > 1);
    expect(repeated).toEqual([]);
    const misplaced = definitions
      .filter((d) => OWNER[CODE_SHAPE.exec(d.text)![1]] !== d.file)
      .map((d) => `${d.file}:${d.line} ${d.text}`);
    expect(misplaced).toEqual([]);
  });
});
