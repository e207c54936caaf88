import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { WorkspacePathResolver } from '../../../src/modules/workspace/index';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { skillMd } from '../../support/skills';
import type { TestContext, TestUser } from '../../support/test-app';

/** Subagent tools are mounted by the runtime: a skill naming one would offer it twice in a run. */
describe('skills: runtime-mounted tools are not dependencies', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    admin = await ctx.newUser({ role: 'admin' });
  });
  afterAll(() => close());

  const row = (slug: string) => ctx.dataSource.getRepository(SkillEntity).findOneBy({ slug });
  const sharedDir = (slug: string) => join(ctx.config.dataDir, 'skills', slug);
  const refused = { status: 422, code: 'skills.reserved_tool_dependency' };
  const outcome = (res: { status: number; body: unknown }) => ({
    status: res.status,
    code: (res.body as { code?: string }).code,
  });

  it('refuses a shared or personal install naming subagent_start (draft confirm) and installs nothing', async () => {
    const bytes = Buffer.from(
      zipSync({ 's/SKILL.md': strToU8(skillMd('needs-subagents', ['tool_dependencies: [subagent_start]'])) }),
    );
    const draft = await ctx.http
      .post('/api/skills/drafts')
      .set(auth(admin))
      .attach('file', bytes, 'skill.zip');
    expect(draft.status).toBe(201);
    const res = await ctx.http
      .post(`/api/skills/drafts/${(draft.body as { id: string }).id}/confirm`)
      .set(auth(admin))
      .send({ target: 'shared' });
    expect(outcome(res)).toEqual(refused);
    expect(res.body).toMatchObject({ details: { field: 'tool_dependencies', ids: ['subagent_start'] } });
    expect(await row('needs-subagents')).toBeNull();
    expect(existsSync(sharedDir('needs-subagents'))).toBe(false);

    const personal = await ctx.http
      .post(`/api/skills/drafts/${(draft.body as { id: string }).id}/confirm`)
      .set(auth(admin))
      .send({ target: 'personal' });
    expect(outcome(personal)).toEqual(refused);
    const mine = await ctx.http.get('/api/skills/needs-subagents').set(auth(admin));
    expect(mine.status).toBe(404);
  });

  it('refuses the edits that would add one (dependencies route, SKILL.md save) and changes nothing', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('edited-deps') });
    const before = readFileSync(join(sharedDir(slug), 'SKILL.md'), 'utf8');
    const deps = await ctx.http
      .put(`/api/skills/${slug}/dependencies`)
      .set(auth(admin))
      .send({
        tool_dependencies: ['read_file', 'subagent_await'],
        mcp_dependencies: [],
        skill_dependencies: [],
      });
    expect(outcome(deps)).toEqual(refused);
    expect(deps.body).toMatchObject({ details: { ids: ['subagent_await'] } });

    const file = await ctx.http.get(`/api/skills/${slug}/files?path=SKILL.md`).set(auth(admin));
    const save = await ctx.http
      .put(`/api/skills/${slug}/files`)
      .set(auth(admin))
      .send({
        path: 'SKILL.md',
        content: skillMd('edited-deps', ['tool_dependencies: [subagent_cancel]']),
        revision: (file.body as { revision: string }).revision,
      });
    expect(outcome(save)).toEqual(refused);
    expect(readFileSync(join(sharedDir(slug), 'SKILL.md'), 'utf8')).toBe(before);
    expect(await row(slug)).toMatchObject({ toolDependencies: [], revision: 1 });
  });

  it('runs an agent with subagents whose user has a skill naming a subagent tool (written by hand, or an older row)', async () => {
    const user = await ctx.newUser();
    const legacy = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('legacy-subagent-dep') },
      { version: 2, read_scope: { level: 'users', user_ids: [user.id, admin.id] } },
    );
    await ctx.dataSource.query(
      `UPDATE skills SET tool_dependencies = '["subagent_status"]' WHERE slug = $1`,
      [legacy],
    );
    // A personal skill is a file of the user's workspace: an agent's write_file can put anything there.
    const personal = join(
      ctx.app.get(WorkspacePathResolver).userDataRoot(user),
      'agents',
      'skills',
      'hand-written',
    );
    mkdirSync(personal, { recursive: true });
    writeFileSync(
      join(personal, 'SKILL.md'),
      skillMd('hand-written', ['tool_dependencies: [subagent_start]']),
    );

    const sub = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Helper', is_subagent: true, config: {} });
    expect(sub.status).toBe(201);
    const agent = (
      await ctx.newAgent(user, {
        name: 'With helpers',
        config: {
          skills: [legacy],
          subagents: [(sub.body as { slug: string }).slug],
        },
      })
    ).slug;
    const thread = await newThread(ctx, user, agent);
    const before = fake.requests.length;
    fake.script({ text: 'done' });
    const run = await startRun(ctx, user, thread, { input: 'hello' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    const offered = (fake.requests[before].body.tools ?? []).map((tool) => tool.function.name);
    expect(offered.filter((name) => name === 'subagent_start')).toEqual(['subagent_start']);
  });
});
