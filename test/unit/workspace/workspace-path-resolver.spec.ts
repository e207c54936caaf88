import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../../src/common/errors/domain-error';
import type { AppConfig } from '../../../src/config/app-config';
import type { SharedSkillReadPolicy } from '../../../src/modules/workspace/paths/shared-skill-read-policy';
import type { WorkspaceAccess } from '../../../src/modules/workspace/paths/workspace-path-resolver';
import { WorkspacePathResolver } from '../../../src/modules/workspace/paths/workspace-path-resolver';

const USER = { id: 'user-a', role: 'user' as const, departmentId: 'dep-1' };
const WORKDIR = '/home/gem/user-data/workdir/demo/';
const HOME = 'users/user-a/user-data';

/** Shares one skill only, so both sides of the policy are visible. */
const policy: SharedSkillReadPolicy = { canRead: (_user, slug) => Promise.resolve(slug === 'shared-ok') };

type Expected = { real: string } | { code: string; reason?: string };
const ok = (real: string): Expected => ({ real });
const refused = (reason: string): Expected => ({ code: 'workspace.path_not_allowed', reason });

const R = 'read' as WorkspaceAccess;
const W = 'write' as WorkspaceAccess;

// [virtual path, access, expected real path (relative to DATA_DIR) or error]
const cases: [string, WorkspaceAccess, Expected][] = [
  // valid absolute paths, normalised
  ['/home/gem/user-data/workdir/demo/a.txt', R, ok(`${HOME}/workdir/demo/a.txt`)],
  ['/home/gem/user-data/workdir/demo/a.txt', W, ok(`${HOME}/workdir/demo/a.txt`)],
  ['/home/gem/user-data/workdir/demo/', R, ok(`${HOME}/workdir/demo`)],
  ['/home/gem/user-data', R, ok(HOME)],
  ['/home/gem/user-data/', R, ok(HOME)],
  ['//home//gem///user-data//x.txt', R, ok(`${HOME}/x.txt`)],
  ['/home/gem/user-data/./workdir/./demo/b.md', R, ok(`${HOME}/workdir/demo/b.md`)],
  ['/home/gem/user-data/workdir/demo/../other/c.txt', W, ok(`${HOME}/workdir/other/c.txt`)],
  [
    '/home/gem/user-data/workdir/demo/outputs/report.html/',
    W,
    ok(`${HOME}/workdir/demo/outputs/report.html`),
  ],
  ['/home/gem/user-data/agents/skills/my-skill/SKILL.md', W, ok(`${HOME}/agents/skills/my-skill/SKILL.md`)],
  ['/home/gem/user-data/workdir/demo/数据 报告.md', W, ok(`${HOME}/workdir/demo/数据 报告.md`)],
  // relative paths resolve against the workdir
  ['a.txt', W, ok(`${HOME}/workdir/demo/a.txt`)],
  ['./outputs/r.html', W, ok(`${HOME}/workdir/demo/outputs/r.html`)],
  ['.', R, ok(`${HOME}/workdir/demo`)],
  ['../shared.txt', W, ok(`${HOME}/workdir/shared.txt`)],
  ['../../agents/skills/x/SKILL.md', R, ok(`${HOME}/agents/skills/x/SKILL.md`)],
  // encodings, backslashes and look-alikes are ordinary characters of a name
  ['/home/gem/user-data/%2e%2e/%2e%2e/etc/passwd', R, ok(`${HOME}/%2e%2e/%2e%2e/etc/passwd`)],
  ['/home/gem/user-data/..%2f..%2fetc%2fpasswd', R, ok(`${HOME}/..%2f..%2fetc%2fpasswd`)],
  ['/home/gem/user-data/a\\..\\..\\etc\\passwd', W, ok(`${HOME}/a\\..\\..\\etc\\passwd`)],
  ['..\\..\\..\\etc\\passwd', W, ok(`${HOME}/workdir/demo/..\\..\\..\\etc\\passwd`)],
  ['C:\\Windows\\system32', R, ok(`${HOME}/workdir/demo/C:\\Windows\\system32`)],
  ['~/notes.txt', R, ok(`${HOME}/workdir/demo/~/notes.txt`)],
  ['file:///etc/passwd', R, ok(`${HOME}/workdir/demo/file:/etc/passwd`)],
  ['/home/gem/user-data/…/x', R, ok(`${HOME}/…/x`)],
  // escapes and paths outside the workspace
  ['/home/gem/user-data/../../etc/passwd', R, refused('outside_workspace')],
  ['/home/gem/user-data/workdir/../../../../etc/shadow', W, refused('outside_workspace')],
  ['/etc/passwd', R, refused('outside_workspace')],
  ['/', R, refused('outside_workspace')],
  ['/home/gem', R, refused('outside_workspace')],
  ['/home/gem/', R, refused('outside_workspace')],
  ['/home/gem/other/x', R, refused('outside_workspace')],
  ['/home/gem/user-data-evil/x', R, refused('outside_workspace')],
  ['/home/gem/skillsX/a', R, refused('outside_workspace')],
  ['/home/other/user-data/x', R, refused('outside_workspace')],
  ['/tmp/x', W, refused('outside_workspace')],
  ['/../home/gem/user-data/x', R, refused('escapes_root')],
  ['../../../../../../etc/passwd', R, refused('escapes_root')],
  ['../../../etc/passwd', R, refused('outside_workspace')],
  ['', R, refused('invalid_syntax')],
  ['/home/gem/user-data/a.txt\0.png', R, refused('invalid_syntax')],
  ['\0', W, refused('invalid_syntax')],
  [`/home/gem/user-data/${'a'.repeat(5000)}`, R, refused('invalid_syntax')],
  // shared skills: read-only, and only what the policy shares
  ['/home/gem/skills/shared-ok/SKILL.md', R, ok('skills/shared-ok/SKILL.md')],
  ['/home/gem/user-data/../skills/shared-ok/SKILL.md', R, ok('skills/shared-ok/SKILL.md')],
  ['/home/gem/skills/shared-ok/SKILL.md', W, refused('read_only')],
  ['/home/gem/skills/shared-ok/new/script.sh', W, refused('read_only')],
  ['/home/gem/user-data/../skills/shared-ok/evil.sh', W, refused('read_only')],
  ['/home/gem/skills/', W, refused('read_only')],
  ['/home/gem/skills/not-shared/SKILL.md', R, refused('not_shared')],
  ['/home/gem/skills', R, refused('not_shared')],
  ['/home/gem/skills/shared-ok/../not-shared/SKILL.md', R, refused('not_shared')],
];

describe('WorkspacePathResolver', () => {
  let dataDir: string;
  let resolver: WorkspacePathResolver;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'workspace-resolver-'));
    resolver = new WorkspacePathResolver({ dataDir } as AppConfig, policy);
    await mkdir(join(dataDir, 'skills', 'shared-ok'), { recursive: true });
    await mkdir(join(dataDir, 'skills', 'not-shared'), { recursive: true });
    const home = join(dataDir, HOME);
    await mkdir(join(home, 'workdir', 'demo'), { recursive: true });
    await mkdir(join(dataDir, 'users', 'user-b', 'user-data'), { recursive: true });
    await writeFile(join(dataDir, 'users', 'user-b', 'user-data', 'secret.txt'), 'b');
    await symlink('/etc', join(home, 'workdir', 'demo', 'etc-link'));
    await symlink(join(dataDir, 'users', 'user-b', 'user-data'), join(home, 'b-link'));
    await symlink(join(home, 'workdir'), join(home, 'workdir-link'));
    await symlink(join(home, 'nowhere'), join(home, 'dangling'));
    await symlink(join(dataDir, 'skills', 'not-shared'), join(dataDir, 'skills', 'shared-ok', 'sneaky'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(cases)('resolves %j for %s', async (input, access, expected) => {
    const outcome = await resolver.resolve(USER, input, { access, workdir: WORKDIR }).then(
      (resolved) => ({ real: resolved.realPath }),
      (error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
        return { code: error.code, reason: error.details?.reason };
      },
    );
    if ('real' in expected) expect(outcome).toEqual({ real: join(dataDir, expected.real) });
    else expect(outcome).toEqual(expected);
  });

  const symlinkCases: [string, WorkspaceAccess, string][] = [
    ['/home/gem/user-data/workdir/demo/etc-link/passwd', R, 'symlink_escape'],
    ['/home/gem/user-data/workdir/demo/etc-link/new-file', W, 'symlink_escape'],
    ['/home/gem/user-data/workdir/demo/etc-link', R, 'symlink_escape'],
    ['/home/gem/user-data/b-link/secret.txt', R, 'symlink_escape'],
    ['/home/gem/user-data/b-link/planted.txt', W, 'symlink_escape'],
    ['/home/gem/user-data/dangling', W, 'symlink_escape'],
    ['/home/gem/skills/shared-ok/sneaky/SKILL.md', R, 'symlink_escape'],
  ];

  it.each(symlinkCases)(
    'refuses %s (%s) through a symlink leading out of its root',
    async (input, access, reason) => {
      await expect(resolver.resolve(USER, input, { access, workdir: WORKDIR })).rejects.toMatchObject({
        code: 'workspace.path_not_allowed',
        details: { reason },
      });
    },
  );

  it('follows a symlink that stays inside the user data', async () => {
    const resolved = await resolver.resolve(USER, '/home/gem/user-data/workdir-link/demo/x.txt', {
      access: W,
    });
    expect(resolved.realPath).toBe(join(dataDir, HOME, 'workdir-link', 'demo', 'x.txt'));
  });

  it('refuses a relative path when there is no workdir', async () => {
    await expect(resolver.resolve(USER, 'a.txt', { access: R })).rejects.toMatchObject({
      details: { reason: 'relative_without_workdir' },
    });
  });

  it('maps every user to their own root, whatever the path says', async () => {
    const other = { ...USER, id: 'user-b' };
    const mine = await resolver.resolve(USER, '/home/gem/user-data/secret.txt', { access: R });
    const theirs = await resolver.resolve(other, '/home/gem/user-data/secret.txt', { access: R });
    expect(mine.realPath).toBe(join(dataDir, 'users', 'user-a', 'user-data', 'secret.txt'));
    expect(theirs.realPath).toBe(join(dataDir, 'users', 'user-b', 'user-data', 'secret.txt'));
  });

  it('refuses a malformed user id instead of building a path from it', async () => {
    await expect(
      resolver.resolve({ ...USER, id: '../user-b' }, '/home/gem/user-data/x', { access: R }),
    ).rejects.toThrow('malformed user id');
  });

  it("hands the resource check's resolution to the same call's handler, once", async () => {
    const resolve = jest.spyOn(resolver, 'resolve');
    try {
      const call = {};
      const options = { access: W, workdir: WORKDIR };
      const checked = await resolver.resolveForCall(call, USER, 'a.txt', options);
      expect(await resolver.resolvedForCall(call, USER, 'a.txt', options)).toBe(checked);
      expect(resolve).toHaveBeenCalledTimes(1);
      // Taken once; another access, workdir or call resolves on its own.
      await resolver.resolveForCall(call, USER, 'a.txt', options);
      await resolver.resolvedForCall(call, USER, 'a.txt', { access: R, workdir: WORKDIR });
      await resolver.resolvedForCall({}, USER, 'a.txt', options);
      expect(resolve).toHaveBeenCalledTimes(4);
      // Never another user's resolution, whatever context object is passed.
      await resolver.resolveForCall(call, USER, '/home/gem/user-data/secret.txt', { access: R });
      const theirs = await resolver.resolvedForCall(
        call,
        { ...USER, id: 'user-b' },
        '/home/gem/user-data/secret.txt',
        { access: R },
      );
      expect(theirs.realPath).toBe(join(dataDir, 'users', 'user-b', 'user-data', 'secret.txt'));
    } finally {
      resolve.mockRestore();
    }
  });

  it('resolves anew for a handler called without a check, even with a context used before', async () => {
    const call = {};
    const path = '/home/gem/user-data/planted/x.txt';
    const before = await resolver.resolvedForCall(call, USER, path, { access: W });
    expect(before.realPath).toBe(join(dataDir, HOME, 'planted', 'x.txt'));
    await symlink('/etc', join(dataDir, HOME, 'planted'));
    await expect(resolver.resolvedForCall(call, USER, path, { access: W })).rejects.toMatchObject({
      details: { reason: 'symlink_escape' },
    });
  });

  it('maps real paths back to virtual ones, and nothing outside the roots', () => {
    expect(resolver.toVirtual(USER, join(dataDir, HOME, 'workdir', 'demo', 'a.txt'))).toBe(
      '/home/gem/user-data/workdir/demo/a.txt',
    );
    expect(resolver.toVirtual(USER, join(dataDir, HOME))).toBe('/home/gem/user-data');
    expect(resolver.toVirtual(USER, join(dataDir, 'skills', 'shared-ok', 'SKILL.md'))).toBe(
      '/home/gem/skills/shared-ok/SKILL.md',
    );
    expect(
      resolver.toVirtual(USER, join(dataDir, 'users', 'user-b', 'user-data', 'secret.txt')),
    ).toBeUndefined();
    expect(resolver.toVirtual(USER, '/etc/passwd')).toBeUndefined();
  });
});
