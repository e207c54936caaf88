import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTools } from '../../../src/modules/workspace/files/file-tools';
import { SharedSkillReadPolicies } from '../../../src/modules/workspace/paths/shared-skill-read-policy';
import { TestContext, type TestUser } from '../../support/test-app';
import { invocationFor, outcomeOf } from './tool-invocation';

describe('shared skills behind a connected read policy', () => {
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

  it('refuses every shared skill until a policy is connected, then follows it; writes stay refused', async () => {
    const tools = ctx.app.get(FileTools);
    const read = (user: TestUser) =>
      tools.readFile({ file_path: '/home/gem/skills/pdf/SKILL.md' }, invocationFor(user));
    expect(await outcomeOf(read(reader))).toEqual({
      code: 'workspace.path_not_allowed',
      reason: 'not_shared',
    });

    const policies = ctx.app.get(SharedSkillReadPolicies);
    policies.connect({ canRead: (user, slug) => Promise.resolve(user.id === reader.id && slug === 'pdf') });
    expect(() => policies.connect({ canRead: () => Promise.resolve(true) })).toThrow('already connected');

    expect(JSON.stringify(await read(reader))).toContain('# pdf skill');
    expect(await outcomeOf(read(stranger))).toEqual({
      code: 'workspace.path_not_allowed',
      reason: 'not_shared',
    });
    expect(
      await outcomeOf(
        tools.writeFile({ file_path: '/home/gem/skills/pdf/SKILL.md', content: 'x' }, invocationFor(reader)),
      ),
    ).toEqual({ code: 'workspace.path_not_allowed', reason: 'read_only' });
  });
});
