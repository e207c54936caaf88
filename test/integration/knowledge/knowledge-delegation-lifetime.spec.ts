import { KnowledgeDelegation, type DelegationGrant } from '../../../src/modules/knowledge/index';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { knowledgeMcpEnvironment, listen, mint } from '../../support/knowledge/knowledge-mcp';
import { toolAnswer } from '../../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

/** Issue 25 item 21: delegation tokens live 60 s by default and die with their run. */
describe('knowledge delegation tokens: lifetime', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let url: string;
  let user: TestUser;
  let agentSlug: string;
  const minted: { grant: DelegationGrant; token: string }[] = [];

  beforeAll(async () => {
    const { port, url: endpoint, env } = await knowledgeMcpEnvironment();
    ({ fake, ctx, close } = await startRuntime(env));
    await listen(ctx, port);
    url = endpoint;
    const admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    await ctx.newKb(admin, { name: 'Handbook' });
    const delegation = ctx.app.get(KnowledgeDelegation);
    const mintReal = delegation.mint.bind(delegation);
    // Records what the runtime itself sends to the endpoint.
    jest.spyOn(delegation, 'mint').mockImplementation((grant) => {
      const token = mintReal(grant);
      minted.push({ grant, token });
      return token;
    });
    const res = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({
        name: 'Librarian',
        config: {
          skills: ['knowledge-base'],
          preload_skills: ['knowledge-base'],
          knowledges: 'all',
          tools: [],
        },
      });
    expect(res.status).toBe(201);
    agentSlug = res.body.slug as string;
  });
  afterAll(() => close());

  const post = (token: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(TOOLS_LIST),
    });

  it('mints tokens that live 60 seconds by default', () => {
    expect(ctx.config.knowledgeMcp.delegationTtlSeconds).toBe(60);
    const token = mint(ctx, { userId: user.id });
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as {
      iat: number;
      exp: number;
    };
    expect(claims.exp - claims.iat).toBe(60);
  });

  it('refuses with 401 a token the runtime used once its run has ended', async () => {
    fake.script({ toolCalls: [{ id: 'c_list', name: 'list_kbs', args: {} }] }, { text: 'done' });
    const started = await startRun(ctx, user, await newThread(ctx, user, agentSlug), { input: 'list them' });
    expect(await waitForStatus(ctx, started.run_id, isTerminal)).toBe('completed');
    // The token worked while the run was active: the tool answered with the base.
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, 'c_list');
    expect(JSON.parse(String(answer?.content))).toMatchObject({
      knowledge_bases: [expect.objectContaining({ name: 'Handbook' })],
    });

    const used = minted.filter(({ grant }) => grant.runId === started.run_id);
    expect(used.length).toBeGreaterThan(0);
    for (const { token } of used) {
      const res = await post(token);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('knowledge.delegation_invalid');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('accepts a token while its run waits for an answer, and refuses it once the run is cancelled', async () => {
    fake.script({
      toolCalls: [{ id: 'ask', name: 'ask_user_question', args: { questions: [{ question: 'Which?' }] } }],
    });
    const threadId = await newThread(ctx, user, agentSlug);
    const started = await startRun(ctx, user, threadId, { input: 'ask first' });
    expect(await waitForStatus(ctx, started.run_id, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
    const token = mint(ctx, { userId: user.id, runId: started.run_id, threadId, kbIds: [] });
    expect((await post(token)).status).toBe(200);

    // Another user's token naming this run is refused: the run is not theirs.
    const other = await ctx.newUser();
    expect((await post(mint(ctx, { userId: other.id, runId: started.run_id, threadId }))).status).toBe(401);

    const cancelled = await ctx.http.post(`/api/runs/${started.run_id}/cancel`).set(auth(user));
    expect(cancelled.status).toBe(200);
    expect((await post(token)).status).toBe(401);
  });
});
