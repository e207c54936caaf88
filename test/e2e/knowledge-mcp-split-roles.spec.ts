import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { insertFile, knowledgeMcpEnvironment, listen } from '../support/knowledge/knowledge-mcp';
import { toolAnswer } from '../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import { freePort } from '../support/free-port';
import { ServiceProcess } from '../support/service-process';
import { TestContext, type TestUser } from '../support/test-app';

jest.setTimeout(90_000);

/**
 * Production split: the API (here, in this process) serves `/mcp/knowledge`; a compiled worker process
 * (`APP_ROLE=worker`, its own PORT, as on another machine) reaches it only through KNOWLEDGE_MCP_URL.
 */
describe('knowledge tools from a worker process that reaches the API at KNOWLEDGE_MCP_URL', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let user: TestUser;
  let worker: ServiceProcess;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    const { port, env: knowledgeEnv } = await knowledgeMcpEnvironment();
    const overrides = { OPENAI_BASE_URL: fake.baseUrl, DEFAULT_MODEL: 'fake-model', ...knowledgeEnv };
    let workerEnv: Record<string, string> = {};
    ctx = await TestContext.start((base) => {
      workerEnv = { ...base, ...overrides };
      return overrides;
    });
    await listen(ctx, port);
    user = await ctx.newUser();
    // Nothing listens on the worker's own port: the default URL (its loopback PORT) would fail.
    worker = ServiceProcess.start('worker', {
      ...workerEnv,
      APP_ROLE: 'worker',
      LOG_LEVEL: 'info',
      PORT: String(await freePort()),
    });
    const deadline = Date.now() + 30_000;
    while (!worker.stdout.includes('agent-runs worker started')) {
      if (Date.now() > deadline || worker.child.exitCode !== null)
        throw new Error(`worker did not start:\n${worker.stderr}\n${worker.stdout.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    worker?.kill();
    await ctx?.close();
    await fake?.close();
  });

  it('runs query_kb through the endpoint as the running user', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    const kb = await ctx.newKb(admin, {
      name: 'Ops',
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [user.id] } },
    });
    const file = await insertFile(ctx, kb, {
      filename: 'runbook.md',
      markdown: 'Restart the ingest service with systemctl restart ingest.\n\nLunch is at noon.',
    });
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({
        name: 'Ops helper',
        config: {
          skills: ['knowledge-base'],
          preload_skills: ['knowledge-base'],
          knowledges: [kb],
          tools: [],
        },
      });
    expect(created.status).toBe(201);
    fake.script(
      {
        toolCalls: [{ id: 'k_1', name: 'query_kb', args: { kb_id: kb, query: 'restart ingest', top_k: 1 } }],
      },
      { text: 'done' },
    );
    const at = fake.requests.length;
    const threadId = await newThread(ctx, user, created.body.slug as string);
    const run = await startRun(ctx, user, threadId, { input: 'how do I restart ingest?' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal, 60_000)).toBe('completed');
    const answer = toolAnswer(fake.requests[at + 1].body.messages, 'k_1')?.content;
    expect(JSON.parse(answer as string)).toMatchObject({
      kb_id: kb,
      results: [expect.objectContaining({ file_id: file, filename: 'runbook.md' })],
    });
  });
});
