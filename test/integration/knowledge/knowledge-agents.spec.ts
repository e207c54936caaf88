import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

describe('knowledge bases as a resource of agents', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let openKb: string;
  let aliceKb: string;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    admin = await ctx.newUser({ role: 'admin' });
    alice = await ctx.newUser();
    bob = await ctx.newUser();
    openKb = await ctx.newKb(admin, { name: 'Open handbook', description: 'Everyone reads it' });
    aliceKb = await ctx.newKb(admin, {
      name: 'Alice notes',
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [alice.id] } },
    });
  });
  afterAll(() => close());

  it('refuses a base the editor cannot read exactly like one that does not exist (422 agents.unknown_reference)', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const ids of [[aliceKb], [missing], [openKb, aliceKb]]) {
      const res = await ctx.http
        .post('/api/agents')
        .set(auth(bob))
        .send({ name: 'Bob agent', config: { knowledges: ids } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: 'agents.unknown_reference',
        details: { field: 'knowledges', ids: ids.filter((id) => id !== openKb) },
      });
    }
    const ok = await ctx.http
      .post('/api/agents')
      .set(auth(alice))
      .send({ name: 'Alice agent', config: { knowledges: [openKb, aliceKb] } });
    expect(ok.status).toBe(201);
    expect(ok.body.config.knowledges).toEqual([openKb, aliceKb]);
  });

  it("offers the caller's readable bases in configurable_items", async () => {
    const created = await ctx.http.post('/api/agents').set(auth(bob)).send({ name: 'Bob options' });
    const view = await ctx.http.get(`/api/agents/${created.body.slug}`).set(auth(bob));
    const item = (
      view.body.configurable_items as { field: string; options?: { value: string; label: string }[] }[]
    ).find((entry) => entry.field === 'knowledges');
    expect(item?.options).toEqual([
      { value: openKb, label: 'Open handbook', description: 'Everyone reads it' },
    ]);

    const aliceAgent = await ctx.http.post('/api/agents').set(auth(alice)).send({ name: 'Alice options' });
    const aliceView = await ctx.http.get(`/api/agents/${aliceAgent.body.slug}`).set(auth(alice));
    const aliceItem = (
      aliceView.body.configurable_items as { field: string; options?: { value: string }[] }[]
    ).find((entry) => entry.field === 'knowledges');
    expect(aliceItem?.options?.map((option) => option.value).sort()).toEqual([openKb, aliceKb].sort());
  });

  it("freezes in each run's snapshot the selection intersected with what the running user may read", async () => {
    const agent = await ctx.http
      .post('/api/agents')
      .set(auth(alice))
      .send({
        name: 'Shared knowledge agent',
        config: { knowledges: [openKb, aliceKb] },
        share_config: { version: 2, read_scope: { level: 'users', user_ids: [alice.id, bob.id] } },
      });
    expect(agent.status).toBe(201);
    const allAgent = await ctx.http
      .post('/api/agents')
      .set(auth(alice))
      .send({
        name: 'All knowledge agent',
        config: { knowledges: 'all' },
        share_config: { version: 2, read_scope: { level: 'users', user_ids: [alice.id, bob.id] } },
      });

    const snapshotOf = async (user: TestUser, slug: string): Promise<string[]> => {
      const threadId = await newThread(ctx, user, slug);
      fake.script({ text: 'done' });
      const run = await startRun(ctx, user, threadId, { input: 'hello' });
      expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
      const [row] = await ctx.dataSource.query<{ config_snapshot: { knowledges: string[] } }[]>(
        `SELECT config_snapshot FROM runs WHERE id = $1`,
        [run.run_id],
      );
      return row.config_snapshot.knowledges;
    };

    expect(await snapshotOf(alice, agent.body.slug)).toEqual([openKb, aliceKb]);
    expect(await snapshotOf(bob, agent.body.slug)).toEqual([openKb]);
    expect((await snapshotOf(alice, allAgent.body.slug)).sort()).toEqual([openKb, aliceKb].sort());
    expect(await snapshotOf(bob, allAgent.body.slug)).toEqual([openKb]);
  });
});
