import { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { toolAnswer } from '../../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { TableLock } from '../../support/table-lock';
import { TcpProxy } from '../../support/tcp-proxy';
import { TestContext, type TestUser } from '../../support/test-app';
import { TEST_PG_ADMIN_URL } from '../../support/test-env';

/**
 * A database outage while an agent is looked up is an outage, not "agent unknown" or "access revoked".
 * The lookup is parked on a lock on `agents`, then PostgreSQL is cut under it through the relay.
 */
describe('an outage during the agent lookup', () => {
  let fake: FakeOpenAiServer;
  let pgProxy: TcpProxy;
  let ctx: TestContext;
  let user: TestUser;

  /** Parks the next `agents` query, cuts PostgreSQL under it, restores it, then lifts the lock. */
  const cutDuringAgentLookup = async (act: () => void) => {
    const lock = await TableLock.take(ctx.databaseName, 'agents');
    try {
      act();
      await lock.blocked();
      await pgProxy.cut();
      await pgProxy.restore();
    } finally {
      await lock.release();
    }
  };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    const pg = new URL(TEST_PG_ADMIN_URL);
    pgProxy = await new TcpProxy(pg.hostname, Number(pg.port || 5432)).start();
    ctx = await TestContext.start((base) => {
      const url = new URL(base.DATABASE_URL);
      url.host = `127.0.0.1:${pgProxy.port}`;
      return {
        APP_ROLE: 'all',
        OPENAI_BASE_URL: fake.baseUrl,
        DEFAULT_MODEL: 'fake-model',
        DATABASE_URL: url.toString(),
      };
    });
    user = await ctx.newUser();
  });
  afterAll(async () => {
    await pgProxy.restore();
    await ctx?.close();
    await pgProxy.stop();
    await fake.close();
  });

  it('answers thread creation with 503 common.dependency_unavailable, not 422, and creates nothing', async () => {
    let response: Promise<{ status: number; body: Record<string, unknown> }> | undefined;
    await cutDuringAgentLookup(() => {
      response = ctx.http
        .post('/api/threads')
        .set(auth(user))
        .send({ agent_slug: 'default-chatbot', title: 'during outage' })
        .then((res) => ({ status: res.status, body: res.body as Record<string, unknown> }));
    });
    const res = await response!;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'common.dependency_unavailable',
      details: { dependency: 'database' },
    });
    const rows = await ctx.dataSource.query(`SELECT id FROM threads WHERE title = 'during outage'`);
    expect(rows).toEqual([]);
  });

  it('does not end a run as agents.access_revoked when the re-check before a tool call meets an outage', async () => {
    const threadId = await newThread(ctx, user);
    const held = fake.holdNext();
    fake.script(
      { toolCalls: [{ id: 'call_outage', name: 'ls', args: { path: '.' } }] },
      { text: 'Done despite the hiccup.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'list files' });
    await held.arrived;
    // The model's tool call is released only once `agents` is locked: the re-check parks on it.
    await cutDuringAgentLookup(() => held.release());

    expect(await waitForStatus(ctx, run.run_id, isTerminal, 60_000)).toBe('completed');
    const [row] = await ctx.dataSource.query<{ error: unknown }[]>(`SELECT error FROM runs WHERE id = $1`, [
      run.run_id,
    ]);
    expect(row.error).toBeNull();
    // The model hears of the outage as a retryable tool error (`common.dependency_unavailable`); or, when
    // a write right after it met a connection the cut had killed, the run was handed back and the tool ran
    // again once the database was back. Either way the call is answered and nothing says access was revoked.
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, 'call_outage');
    expect(answer!.content as string).not.toContain('agents.access_revoked');
  });
});
