import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolInvocation } from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolResourceAuthorizers } from '../../../src/modules/tools/execution/tool-resource-authorizers';
import { FileTools } from '../../../src/modules/workspace/files/file-tools';
import { WorkspaceModule } from '../../../src/modules/workspace/workspace.module';
import { TestContext, type TestUser } from '../../support/test-app';
import { invocationFor, outcomeOf, WORKDIR } from './tool-invocation';

const refused = (reason: string) => ({ code: 'workspace.path_not_allowed', reason });

describe('workspace isolation', () => {
  let ctx: TestContext;
  let dataDir: string;
  let outside: string;
  let tools: FileTools;
  let alice: TestUser;
  let bob: TestUser;
  let asAlice: ToolInvocation;
  let asBob: ToolInvocation;
  let aliceHome: string;
  let bobHome: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'workspace-isolation-'));
    outside = await mkdtemp(join(tmpdir(), 'workspace-outside-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir }, [WorkspaceModule]);
    tools = ctx.app.get(FileTools);
    alice = await ctx.newUser();
    bob = await ctx.newUser();
    asAlice = invocationFor(alice);
    asBob = invocationFor(bob);
    aliceHome = join(dataDir, 'users', alice.id, 'user-data');
    bobHome = join(dataDir, 'users', bob.id, 'user-data');
    await tools.writeFile({ file_path: 'secret.txt', content: 'alice only\n' }, asAlice);
    await tools.writeFile({ file_path: 'bob.txt', content: 'bob\n' }, asBob);
    await mkdir(join(dataDir, 'skills', 'pdf'), { recursive: true });
    await writeFile(join(dataDir, 'skills', 'pdf', 'SKILL.md'), '# pdf\n');
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it("never lets one user reach another user's file", async () => {
    const aliceFile = join(aliceHome, 'workdir', 'demo', 'secret.txt');
    expect(await readFile(aliceFile, 'utf8')).toBe('alice only\n');
    const attempts: [string, object][] = [
      [`${WORKDIR}secret.txt`, { code: 'workspace.not_found' }],
      ['secret.txt', { code: 'workspace.not_found' }],
      [aliceFile, refused('outside_workspace')],
      [
        `/home/gem/user-data/../../../users/${alice.id}/user-data/workdir/demo/secret.txt`,
        refused('outside_workspace'),
      ],
      [`../../../../users/${alice.id}/user-data/workdir/demo/secret.txt`, refused('outside_workspace')],
      [`../../../../../../${aliceFile}`, refused('escapes_root')],
      [`/home/gem/user-data/../${alice.id}/user-data/workdir/demo/secret.txt`, refused('outside_workspace')],
      [`/home/${alice.id}/user-data/workdir/demo/secret.txt`, refused('outside_workspace')],
      [`/home/gem/users/${alice.id}/user-data/workdir/demo/secret.txt`, refused('outside_workspace')],
      [
        `/home/gem/user-data/users/${alice.id}/user-data/workdir/demo/secret.txt`,
        { code: 'workspace.not_found' },
      ],
    ];
    for (const [path, expected] of attempts) {
      expect([path, await outcomeOf(tools.readFile({ file_path: path }, asBob))]).toEqual([path, expected]);
    }
    expect(await tools.grep({ pattern: 'alice', path: '/home/gem/user-data' }, asBob)).toMatch(
      /^No matches found/,
    );
    expect(await tools.glob({ pattern: '**/secret.txt', path: '/home/gem/user-data' }, asBob)).toMatch(
      /^No files/,
    );
    expect(await outcomeOf(tools.writeFile({ file_path: aliceFile, content: 'x' }, asBob))).toEqual(
      refused('outside_workspace'),
    );
    expect(await readFile(aliceFile, 'utf8')).toBe('alice only\n');
  });

  it.each([
    '/home/gem/user-data/../../etc/passwd',
    '../../../../../etc/passwd',
    '/etc/passwd',
    '/home/gem/user-data/workdir/demo/../../../../../../../etc/passwd',
    '/home/gem/user-data/a.txt\0/../../../etc/passwd',
  ])('refuses the traversal %j', async (path) => {
    expect(await outcomeOf(tools.readFile({ file_path: path }, asAlice))).toMatchObject({
      code: 'workspace.path_not_allowed',
    });
    // Writes aim at a harmless name: if the guard ever regressed, nothing real would be overwritten.
    const planted = path.replace('passwd', 'yuxi-workspace-planted');
    expect(await outcomeOf(tools.writeFile({ file_path: planted, content: 'x' }, asAlice))).toMatchObject({
      code: 'workspace.path_not_allowed',
    });
    await expect(stat('/etc/yuxi-workspace-planted')).rejects.toThrow();
  });

  describe('symlinks inside the workspace', () => {
    beforeAll(async () => {
      const demo = join(aliceHome, 'workdir', 'demo');
      await symlink('/etc', join(demo, 'etc'));
      // Writes go through a link to a scratch directory outside DATA_DIR, never to a system one.
      await symlink(outside, join(demo, 'out'));
      await symlink('/etc/hostname', join(demo, 'hostname'));
      await symlink(bobHome, join(demo, 'bob'));
    });

    it.each([['etc/passwd'], ['hostname'], ['bob/workdir/demo/bob.txt'], ['etc']])(
      'refuses reading through %s',
      async (path) => {
        expect(await outcomeOf(tools.readFile({ file_path: path }, asAlice))).toEqual(
          refused('symlink_escape'),
        );
      },
    );

    it('refuses writing, editing and listing through them, and changes nothing', async () => {
      expect(await outcomeOf(tools.writeFile({ file_path: 'out/planted', content: 'x' }, asAlice))).toEqual(
        refused('symlink_escape'),
      );
      expect(await outcomeOf(tools.writeFile({ file_path: 'out', content: 'x' }, asAlice))).toEqual(
        refused('symlink_escape'),
      );
      expect(
        await outcomeOf(tools.writeFile({ file_path: 'bob/planted.txt', content: 'x' }, asAlice)),
      ).toEqual(refused('symlink_escape'));
      const edit = { file_path: 'bob/workdir/demo/bob.txt', old_string: 'bob', new_string: 'pwned' };
      expect(await outcomeOf(tools.editFile(edit, asAlice))).toEqual(refused('symlink_escape'));
      expect(await outcomeOf(tools.ls({ path: 'bob' }, asAlice))).toEqual(refused('symlink_escape'));
      expect(await readdir(bobHome)).not.toContain('planted.txt');
      expect(await readFile(join(bobHome, 'workdir', 'demo', 'bob.txt'), 'utf8')).toBe('bob\n');
      expect(await readdir(outside)).toEqual([]);
    });

    it('does not follow them in glob and grep', async () => {
      expect(await tools.glob({ pattern: '**/*' }, asAlice)).not.toMatch(/passwd|bob\.txt|hostname/);
      expect(await tools.grep({ pattern: 'root', literal: true }, asAlice)).toMatch(/^No matches found/);
      expect(await tools.grep({ pattern: 'bob', literal: true }, asAlice)).toMatch(/^No matches found/);
    });
  });

  it('keeps /home/gem/skills read-only and unreadable under the default policy', async () => {
    expect(await readFile(join(dataDir, 'skills', 'pdf', 'SKILL.md'), 'utf8')).toBe('# pdf\n');
    expect(await outcomeOf(tools.readFile({ file_path: '/home/gem/skills/pdf/SKILL.md' }, asAlice))).toEqual(
      refused('not_shared'),
    );
    expect(await outcomeOf(tools.ls({ path: '/home/gem/skills' }, asAlice))).toEqual(refused('not_shared'));
    expect(await outcomeOf(tools.grep({ pattern: 'pdf', path: '/home/gem/skills/pdf' }, asAlice))).toEqual(
      refused('not_shared'),
    );
    const write = { file_path: '/home/gem/skills/pdf/SKILL.md', content: 'pwned' };
    expect(await outcomeOf(tools.writeFile(write, asAlice))).toEqual(refused('read_only'));
    const edit = { file_path: '/home/gem/skills/pdf/SKILL.md', old_string: 'pdf', new_string: 'x' };
    expect(await outcomeOf(tools.editFile(edit, asAlice))).toEqual(refused('read_only'));
    expect(await readFile(join(dataDir, 'skills', 'pdf', 'SKILL.md'), 'utf8')).toBe('# pdf\n');
  });

  it('authorizes workspace_path and workspace_paths at the execution boundary', async () => {
    const authorizers = ctx.app.get(ToolResourceAuthorizers);
    const single = authorizers.find('workspace_path')!;
    const many = authorizers.find('workspace_paths')!;
    const context = asAlice.context;
    await expect(single.authorize('secret.txt', 'read', context)).resolves.toBeUndefined();
    await expect(
      single.authorize('/home/gem/user-data/agents/skills/mine/SKILL.md', 'write', context),
    ).resolves.toBeUndefined();
    expect(await outcomeOf(single.authorize('/etc/passwd', 'read', context))).toEqual(
      refused('outside_workspace'),
    );
    expect(await outcomeOf(single.authorize('/home/gem/skills/pdf/x', 'write', context))).toEqual(
      refused('read_only'),
    );
    expect(await outcomeOf(single.authorize(42, 'read', context))).toEqual(refused('invalid_syntax'));
    await expect(
      many.authorize(['outputs/a.md', `${WORKDIR}outputs/b.md`], 'read', context),
    ).resolves.toBeUndefined();
    expect(await outcomeOf(many.authorize(['outputs/a.md', 'etc/passwd'], 'read', context))).toEqual(
      refused('symlink_escape'),
    );
    expect(await outcomeOf(many.authorize('outputs/a.md', 'read', context))).toEqual(
      refused('invalid_syntax'),
    );
  });
});
