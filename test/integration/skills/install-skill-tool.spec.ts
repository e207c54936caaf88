import { strToU8, zipSync } from 'fflate';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { auth, newThread } from '../../support/runs/run-helpers';
import { forgeTransport, startForge, transportModule } from '../../support/skill-forge';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

const WORKDIR = '/home/gem/user-data/workdir/demo/';

describe('install_skill through the execution boundary', () => {
  let forge: Awaited<ReturnType<typeof startForge>>;
  let ctx: TestContext;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    forge = await startForge();
    ctx = await TestContext.start({ ALLOW_PRIVATE_NETWORK_TARGETS: 'github.com,codeload.github.com' }, [
      transportModule(forgeTransport(forge.port)),
    ]);
    owner = await ctx.newUser();
    other = await ctx.newUser();
  });
  afterAll(async () => {
    await ctx?.close();
    await forge?.close();
  });
  beforeEach(() => (forge.seen.length = 0));

  const workdirOnDisk = (user: TestUser) =>
    join(ctx.config.dataDir, 'users', user.id, 'user-data', 'workdir', 'demo');
  const context = (user: TestUser, threadId: string, isSubagent = false): ToolExecutionContext => ({
    user: { id: user.id, role: user.role, departmentId: user.departmentId },
    runId: randomUUID(),
    threadId,
    leaseToken: 'lease',
    workdir: WORKDIR,
    executableTools: new Set(['install_skill']),
    visibleTools: new Set(['install_skill']),
    isSubagent,
    verifyAuthorization: noRuntimeCheck,
  });
  const install = (c: ToolExecutionContext, args: Record<string, unknown>) =>
    ctx.app.get(ToolExecutor).execute({ id: `call-${randomUUID()}`, name: 'install_skill', args }, c);
  const personalSlugs = async (user: TestUser) => {
    const res = await ctx.http.get('/api/skills').set(auth(user));
    return (res.body as { items: { slug: string; source: string }[] }).items
      .filter((i) => i.source === 'personal')
      .map((i) => i.slug);
  };
  async function newAgent(user: TestUser, skills: string[] | 'all') {
    const res = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: `Agent ${randomUUID().slice(0, 6)}`, config: { skills } });
    expect(res.status).toBe(201);
    return (res.body as { slug: string }).slug;
  }
  const agentSkills = async (user: TestUser, slug: string) =>
    ((await ctx.http.get(`/api/agents/${slug}`).set(auth(user))).body as { config: { skills: unknown } })
      .config.skills;

  it('installs every skill of a workspace zip and appends them to the owner agent with an explicit list', async () => {
    await mkdir(workdirOnDisk(owner), { recursive: true });
    await writeFile(
      join(workdirOnDisk(owner), 'pack.zip'),
      zipSync({
        'pack/one/SKILL.md': strToU8(skillMd('ws-one')),
        'pack/two/SKILL.md': strToU8(skillMd('ws-two')),
      }),
    );
    const agent = await newAgent(owner, []);
    const threadId = await newThread(ctx, owner, agent);
    const result = await install(context(owner, threadId), { source: `${WORKDIR}pack.zip` });
    expect(result).toMatchObject({ outcome: 'ok', isError: false });
    expect(JSON.stringify(result)).toContain('ws-one, ws-two');
    expect(await personalSlugs(owner)).toEqual(expect.arrayContaining(['ws-one', 'ws-two']));
    expect(await agentSkills(owner, agent)).toEqual(['ws-one', 'ws-two']);
  });

  it('installs the named skills of a remote source; an agent on "all" is left unchanged and says so', async () => {
    const agent = await newAgent(owner, 'all');
    const threadId = await newThread(ctx, owner, agent);
    const result = await install(context(owner, threadId), {
      source: 'acme/tools',
      skill_names: ['remote-a'],
    });
    expect(JSON.stringify(result)).toContain('not changed');
    expect(forge.seen).toContain('codeload.github.com/acme/tools/zip/HEAD');
    const mine = await personalSlugs(owner);
    expect(mine).toContain('remote-a');
    expect(mine).not.toContain('remote-b');
    expect(await agentSkills(owner, agent)).toBe('all');
  });

  it("requires skill_names for a remote source and leaves another user's agent unchanged", async () => {
    const threadId = await newThread(ctx, other);
    const missing = await install(context(other, threadId), { source: 'acme/tools' });
    expect(missing).toMatchObject({ isError: true, errorCode: 'common.validation_failed' });
    expect(JSON.stringify(missing)).toContain('skill_names');
    expect(forge.seen).toEqual([]);
    const ok = await install(context(other, threadId), { source: 'acme/tools', skill_names: ['remote-b'] });
    expect(ok).toMatchObject({ outcome: 'ok', isError: false });
    expect(JSON.stringify(ok)).toContain('not changed');
    expect(await personalSlugs(other)).toEqual(['remote-b']);
  });

  it('refuses a subagent before any I/O', async () => {
    const threadId = await newThread(ctx, other);
    const result = await install(context(other, threadId, true), {
      source: 'acme/tools',
      skill_names: ['remote-a'],
    });
    expect(result).toMatchObject({ isError: true, errorCode: 'tools.forbidden_for_subagent' });
    expect(forge.seen).toEqual([]);
    expect(await personalSlugs(other)).not.toContain('remote-a');
  });
});
