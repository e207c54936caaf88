import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { offeredTools } from '../../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

/** Issue 25 item 2: resource fields are stored exactly as given, base tools included. */
describe('agents: resource fields stored as given', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let kbA: string;
  let kbB: string;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    admin = await ctx.newUser({ role: 'admin' });
    kbA = await ctx.newKb(admin, { name: 'Kb A' });
    kbB = await ctx.newKb(admin, { name: 'Kb B' });
    const sub = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({ name: 'Zeta helper', slug: 'zeta-helper', is_subagent: true });
    expect(sub.status).toBe(201);
  });
  afterAll(() => close());

  const storedConfig = async (slug: string) =>
    (await ctx.dataSource.query<{ config: object }[]>(`SELECT config FROM agents WHERE slug = $1`, [slug]))[0]
      .config;

  it('keeps every resource field in the order sent, base tools included, on create, read and PATCH', async () => {
    const fields = {
      tools: ['write_file', 'ask_user_question', 'read_file', 'mark_for_improvement'],
      knowledges: [kbB, kbA],
      skills: ['knowledge-base', 'deep-research', 'html-preview'],
      subagents: ['zeta-helper', 'general-purpose'],
      mcps: ['knowledge'],
      preload_skills: ['html-preview', 'deep-research'],
    };
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({ name: 'Exact', slug: 'exact-fields', config: fields });
    expect(created.status).toBe(201);
    expect(created.body.config).toMatchObject(fields);
    const read = await ctx.http.get('/api/agents/exact-fields').set(auth(admin));
    expect(read.body.config).toMatchObject(fields);
    expect(await storedConfig('exact-fields')).toMatchObject(fields);

    // A PATCH that adds a base tool keeps it where it was sent.
    const edited = await ctx.http
      .patch('/api/agents/exact-fields')
      .set(auth(admin))
      .send({
        config: { tools: ['read_file', 'ask_user_question'], subagents: ['general-purpose', 'zeta-helper'] },
      });
    expect(edited.status).toBe(200);
    expect(edited.body.config.tools).toEqual(['read_file', 'ask_user_question']);
    expect(edited.body.config.subagents).toEqual(['general-purpose', 'zeta-helper']);
    const reread = await ctx.http.get('/api/agents/exact-fields').set(auth(admin));
    expect(reread.body.config.tools).toEqual(['read_file', 'ask_user_question']);
    expect(reread.body.config.subagents).toEqual(['general-purpose', 'zeta-helper']);
  });

  it('still refuses an unknown tool named beside a base tool (422, base tool not reported)', async () => {
    const res = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({ name: 'Bad', slug: 'bad-tools', config: { tools: ['ask_user_question', 'no_such_tool'] } });
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual({ field: 'tools', ids: ['no_such_tool'] });
  });

  it('offers a base tool named in tools once to the model, next to the selected tools', async () => {
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({
        name: 'Runner',
        slug: 'base-runner',
        config: { tools: ['read_file', 'ask_user_question'], subagents: [], skills: [], knowledges: [] },
      });
    expect(created.status).toBe(201);
    fake.script({ text: 'hello' });
    const run = await startRun(ctx, admin, await newThread(ctx, admin, 'base-runner'), { input: 'hi' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    const offered = offeredTools(fake.requests.at(-1)!);
    expect(offered.filter((name) => name === 'ask_user_question')).toHaveLength(1);
    expect(offered).toEqual(
      expect.arrayContaining(['read_file', 'ask_user_question', 'mark_for_improvement']),
    );
    expect(new Set(offered).size).toBe(offered.length);
    expect(offered).not.toContain('write_file');
  });
});
