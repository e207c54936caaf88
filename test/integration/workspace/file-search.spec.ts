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
