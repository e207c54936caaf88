import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../../..');

interface LintMessage {
  ruleId: string | null;
  messageId?: string;
  severity: number;
  fatal?: boolean;
  line: number;
}

/**
 * Lints fixture text under the paths of existing files (`lintText`: the file on disk is neither read nor
 * written; type-aware parsing needs a path the TypeScript project knows) with the project's own ESLint
 * configuration, in a child process: ESLint loads `eslint.config.mjs` with a dynamic import, which Jest's
 * CommonJS runtime refuses.
 */
async function lint(files: Record<string, string>): Promise<Record<string, LintMessage[]>> {
  const script = `
    const { ESLint } = await import('eslint');
    const files = JSON.parse(process.env.LINT_FILES);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = {};
    for (const [file, code] of Object.entries(files)) {
      const [result] = await eslint.lintText(code, { filePath: file });
      out[file] = result.messages;
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const absolute = Object.fromEntries(Object.entries(files).map(([f, code]) => [path.join(root, f), code]));
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, LINT_FILES: JSON.stringify(absolute) },
    maxBuffer: 10 * 1024 * 1024,
  });
  const results = JSON.parse(stdout) as Record<string, LintMessage[]>;
  return Object.fromEntries(Object.entries(files).map(([f]) => [f, results[path.join(root, f)]]));
}

const boundaries = (messages: LintMessage[]) =>
  messages.filter((m) => m.ruleId === 'local/module-boundaries');

describe('module-boundaries in the project ESLint configuration (npm run lint)', () => {
  const DEEP = 'src/modules/threads/thread-files.controller.ts';
  const INFRA = 'src/database/unique-violation.ts';
  const DOOR = 'src/modules/threads/threads.service.ts';
  let results: Record<string, LintMessage[]>;

  beforeAll(async () => {
    results = await lint({
      [DEEP]:
        "import { ThreadArtifactsRepository } from '../artifacts/thread-artifacts.repository.js';\n\nexport const used = ThreadArtifactsRepository;\n",
      [INFRA]:
        "import { THREADS_ENTITIES } from '../modules/threads/index.js';\n\nexport const used = THREADS_ENTITIES;\n",
      [DOOR]:
        "import { ArtifactsService } from '../artifacts/index.js';\n\nexport const used = ArtifactsService;\n",
    });
  }, 120_000);

  it('parses every fixture (the verdicts below are real)', () => {
    for (const messages of Object.values(results)) expect(messages.filter((m) => m.fatal)).toEqual([]);
  });

  it('fails a deep import into another module', () => {
    expect(boundaries(results[DEEP])).toEqual([
      expect.objectContaining({ messageId: 'deepImport', severity: 2, line: 1 }),
    ]);
  });

  it('fails a module import from src/database', () => {
    expect(boundaries(results[INFRA])).toEqual([
      expect.objectContaining({ messageId: 'infrastructureImport', severity: 2, line: 1 }),
    ]);
  });

  it('accepts the same need met through the front door', () => {
    expect(results[DOOR]).toEqual([]);
  });
});
