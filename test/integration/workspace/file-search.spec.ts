import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolInvocation } from '../../../src/modules/tools/execution/tool-execution-context';
import { FileTools } from '../../../src/modules/workspace/files/file-tools';
import { WorkspaceModule } from '../../../src/modules/workspace/workspace.module';
import { TestContext, type TestUser } from '../../support/test-app';
import { invocationFor, outcomeOf, WORKDIR } from './tool-invocation';

describe('workspace file search (glob, grep)', () => {
  let ctx: TestContext;
  let dataDir: string;
  let tools: FileTools;
  let user: TestUser;
  let inv: ToolInvocation;
  let workdir: string; // real path of WORKDIR

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'workspace-search-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir }, [WorkspaceModule]);
    tools = ctx.app.get(FileTools);
    user = await ctx.newUser();
    inv = invocationFor(user);
    workdir = join(dataDir, 'users', user.id, 'user-data', 'workdir', 'demo');
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('globs newest first, skipping hidden entries', async () => {
    const base = join(workdir, 'g');
    await mkdir(join(base, 'deep/er'), { recursive: true });
    await mkdir(join(base, '.hidden'), { recursive: true });
    const files: [string, number][] = [
      ['old.md', 1_000],
      ['deep/er/new.md', 3_000],
      ['deep/mid.md', 2_000],
    ];
    for (const [name, seconds] of files) {
      await writeFile(join(base, name), name);
      await utimes(join(base, name), seconds, seconds);
    }
    await writeFile(join(base, '.hidden/secret.md'), 'x');
    await writeFile(join(base, 'other.txt'), 'x');
    expect(await tools.glob({ pattern: '**/*.md', path: `${WORKDIR}g` }, inv)).toBe(
      [`${WORKDIR}g/deep/er/new.md`, `${WORKDIR}g/deep/mid.md`, `${WORKDIR}g/old.md`].join('\n'),
    );
    expect(await tools.glob({ pattern: '*.md', path: 'g' }, inv)).toBe(`${WORKDIR}g/old.md`);
    expect(await tools.glob({ pattern: 'g/*.txt' }, inv)).toBe(`${WORKDIR}g/other.txt`);
    expect(await tools.glob({ pattern: '*.nothing', path: 'g' }, inv)).toMatch(/^No files under/);
    for (const pattern of ['/etc/*', '../*', 'a/../../*']) {
      expect(await outcomeOf(tools.glob({ pattern, path: 'g' }, inv))).toEqual({
        code: 'workspace.invalid_pattern',
      });
    }
  });

  describe('glob patterns that backtrack', () => {
    // Twenty stars against forty `a`s: picomatch's regular expression backtracks for hours.
    const ISSUE_PATTERN = `${'a*'.repeat(20)}b`;
    // Within the wildcard bound, yet still exponential against a long enough name.
    const BOUNDED_PATTERN = `${'a*'.repeat(10)}b`;

    beforeAll(async () => {
      await mkdir(join(workdir, 'redos'), { recursive: true });
      await writeFile(join(workdir, 'redos', 'a'.repeat(40)), 'x');
      await writeFile(join(workdir, 'redos', 'a'.repeat(200)), 'x');
    });

    it("refuses the issue pattern in glob and in grep's glob option as invalid_pattern", async () => {
      for (const call of [
        tools.glob({ pattern: ISSUE_PATTERN, path: 'redos' }, inv),
        tools.grep({ pattern: 'x', path: 'redos', glob: ISSUE_PATTERN }, inv),
      ]) {
        await expect(call).rejects.toMatchObject({
          code: 'workspace.invalid_pattern',
          message: expect.stringContaining('wildcards'),
        });
      }
      await expect(tools.glob({ pattern: `${'x'.repeat(501)}`, path: 'redos' }, inv)).rejects.toMatchObject({
        code: 'workspace.invalid_pattern',
        message: expect.stringContaining('500 characters'),
      });
    });

    it('stops a pattern within the bounds with search_timeout while the process keeps serving', async () => {
      let settledAt = 0;
      const globbing = outcomeOf(tools.glob({ pattern: BOUNDED_PATTERN, path: 'redos' }, inv)).finally(() => {
        settledAt = Date.now();
      });
      const grepping = outcomeOf(
        tools.grep({ pattern: 'x', literal: true, path: 'redos', glob: BOUNDED_PATTERN }, inv),
      );
      const health = await ctx.http.get('/api/health');
      const answeredAt = Date.now();
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok' });
      expect(await globbing).toEqual({ code: 'workspace.search_timeout' });
      expect(await grepping).toEqual({ code: 'workspace.search_timeout' });
      expect(settledAt).toBeGreaterThanOrEqual(answeredAt);
    });

    it("still matches ordinary patterns, including grep's base-name globs at any depth", async () => {
      expect(await tools.glob({ pattern: 'a*b', path: 'redos' }, inv)).toMatch(/^No files under/);
      expect(await tools.glob({ pattern: `${'a'.repeat(39)}?`, path: 'redos' }, inv)).toBe(
        `${WORKDIR}redos/${'a'.repeat(40)}`,
      );
      expect(await tools.grep({ pattern: 'x', literal: true, glob: `${'a'.repeat(40)}` }, inv)).toBe(
        `${WORKDIR}redos/${'a'.repeat(40)}:1: x`,
      );
    });
  });

  describe('grep', () => {
    beforeAll(async () => {
      await mkdir(join(workdir, 'src'), { recursive: true });
      await writeFile(join(workdir, 'src/app.py'), 'import os\nprint("Hello")\nvalue = a.b(c)\n');
      await writeFile(join(workdir, 'src/notes.md'), 'hello world\nHELLO again\n');
      await writeFile(join(workdir, 'src/data.bin'), Buffer.from('hello\0hello'));
    });
    const grep = (args: Record<string, unknown>) => tools.grep({ path: 'src', ...args } as any, inv);

    it('finds literal text, reporting path:line: text', async () => {
      expect(await grep({ pattern: 'a.b(c)', literal: true })).toBe(`${WORKDIR}src/app.py:3: value = a.b(c)`);
    });

    it('matches regular expressions, optionally ignoring case', async () => {
      expect(await grep({ pattern: '^hel+o' })).toBe(`${WORKDIR}src/notes.md:1: hello world`);
      expect(await grep({ pattern: '^hel+o', case_insensitive: true })).toBe(
        [`${WORKDIR}src/notes.md:1: hello world`, `${WORKDIR}src/notes.md:2: HELLO again`].join('\n'),
      );
      expect(await grep({ pattern: 'hello', literal: true, case_insensitive: true, glob: '*.py' })).toBe(
        `${WORKDIR}src/app.py:2: print("Hello")`,
      );
    });

    it('searches the workdir by default and says when nothing matches', async () => {
      expect(await tools.grep({ pattern: 'zzz-not-there' }, inv)).toMatch(/^No matches found/);
    });

    it('refuses an invalid regular expression with a hint', async () => {
      await expect(grep({ pattern: 'a.b(c' })).rejects.toMatchObject({
        code: 'workspace.invalid_pattern',
        message: expect.stringContaining('literal: true'),
      });
    });

    it('stops a catastrophic regular expression with search_timeout instead of hanging', async () => {
      await writeFile(join(workdir, 'src/redos.txt'), `${'a'.repeat(5000)}!\n`);
      const started = Date.now();
      expect(await outcomeOf(grep({ pattern: '(a+)+$', glob: 'redos.txt' }))).toEqual({
        code: 'workspace.search_timeout',
      });
      expect(Date.now() - started).toBeLessThan(8_000);
    });
  });
});
