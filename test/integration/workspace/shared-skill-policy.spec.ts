import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTools } from '../../../src/modules/workspace/files/file-tools';
import { SharedSkillReadPolicies } from '../../../src/modules/workspace/paths/shared-skill-read-policy';
import { TestContext, type TestUser } from '../../support/test-app';
import { invocationFor, outcomeOf } from './tool-invocation';

describe('shared skills behind the read policy', () => {
  let ctx: TestContext;
  let dataDir: string;
  let reader: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'workspace-skills-'));
    ctx = await TestContext.start({ DATA_DIR: dataDir });
    reader = await ctx.newUser();
    stranger = await ctx.newUser();
    await mkdir(join(dataDir, 'skills', 'pdf'), { recursive: true });
    await writeFile(join(dataDir, 'skills', 'pdf', 'SKILL.md'), '# pdf skill\n');
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses every shared skill while no policy is connected', async () => {
    const unconnected = new SharedSkillReadPolicies();
    expect(await unconnected.canRead(reader, 'pdf')).toBe(false);
    unconnected.connect({
      canRead: (user, slug) => Promise.resolve(user.id === reader.id && slug === 'pdf'),
    });
    expect(await unconnected.canRead(reader, 'pdf')).toBe(true);
    expect(await unconnected.canRead(stranger, 'pdf')).toBe(false);
    expect(() => unconnected.connect({ canRead: () => Promise.resolve(true) })).toThrow('already connected');
  });

  it("follows the skills module's policy once the app is up: a folder without a skill is nobody's; writes stay refused", async () => {
    const tools = ctx.app.get(FileTools);
    const read = (user: TestUser, path = '/home/gem/skills/pdf/SKILL.md') =>
      tools.readFile({ file_path: path }, invocationFor(user));
    expect(await outcomeOf(read(reader))).toEqual({
      code: 'workspace.path_not_allowed',
      reason: 'not_shared',
    });
    // The skills module connected its policy at start: a second one is refused.
    const policies = ctx.app.get(SharedSkillReadPolicies);
    expect(() => policies.connect({ canRead: () => Promise.resolve(true) })).toThrow('already connected');
    // A builtin skill is readable by everyone, never writable.
    expect(JSON.stringify(await read(stranger, '/home/gem/skills/html-preview/SKILL.md'))).toContain(
      'html:preview',
    );
    expect(
      await outcomeOf(
        tools.writeFile(
          { file_path: '/home/gem/skills/html-preview/SKILL.md', content: 'x' },
          invocationFor(reader),
        ),
      ),
    ).toEqual({ code: 'workspace.path_not_allowed', reason: 'read_only' });
  });
});
