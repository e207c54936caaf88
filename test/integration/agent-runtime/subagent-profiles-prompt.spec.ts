import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext, TestUser } from '../../support/test-app';

describe('the subagents a run may call, in its system prompt (fake model)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });
  afterAll(() => close());

  const systemPromptOfRun = async (agentSlug: string) => {
    const threadId = await newThread(ctx, user, agentSlug);
    const before = fake.requests.length;
    fake.script({ text: 'ok' });
    const run = await startRun(ctx, user, threadId, { input: 'hi' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    const [first] = fake.requests.slice(before);
    const system = first.body.messages.find((message) => message.role === 'system');
    return typeof system?.content === 'string' ? system.content : '';
  };

  it('lists each selected subagent the user may use with its name and description, in order', async () => {
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({
        name: 'Delegator',
        config: { system_prompt: 'Be brief.', skills: [], subagents: ['general-purpose'] },
      });
    expect(created.status).toBe(201);
    const prompt = await systemPromptOfRun('delegator');
    expect(prompt.startsWith('Be brief.\n\nSubagents you can delegate to with subagent_start')).toBe(true);
    expect(prompt).toContain(
      '- general-purpose (General purpose): Handles a delegated task on its own and reports the result.',
    );
  });

  it('lists none when the agent selects none', async () => {
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Loner', config: { system_prompt: 'Alone.', skills: [], subagents: [] } });
    expect(created.status).toBe(201);
    expect(await systemPromptOfRun('loner')).toBe('Alone.');
  });
});
