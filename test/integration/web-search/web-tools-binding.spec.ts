import { offeredTools } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { type RuntimeContext, startRuntime } from '../../support/runs/runtime-context';
import type { TestUser } from '../../support/test-app';
import { type FakeVendor, startFakeTavily } from '../../support/web-search/fake-vendors';
import { TAVILY_RESULTS } from '../../support/web-search/fixtures';

const KEY = 'tvly-binding-key-7777';
const SETTINGS = '/api/system/settings/web-search';

describe('binding web_search / web_fetch at each graph build', () => {
  let runtime: RuntimeContext;
  let tavily: FakeVendor;
  let root: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    tavily = await startFakeTavily(KEY, { results: TAVILY_RESULTS, pages: {} });
    runtime = await startRuntime({
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      TAVILY_BASE_URL: tavily.baseUrl,
    });
    root = await runtime.ctx.newUser({ role: 'superadmin' });
    user = await runtime.ctx.newUser();
    const created = await runtime.ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Researcher', slug: 'researcher', config: { tools: ['web_search', 'web_fetch'] } });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await runtime.close();
    await tavily.close();
  });

  async function runOnce(input: string) {
    const { ctx } = runtime;
    const threadId = await newThread(ctx, user, 'researcher');
    const run = await startRun(ctx, user, threadId, { input });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    return run.run_id;
  }

  const catalogEntry = async (id: string) =>
    (await runtime.ctx.http.get(`/api/system/tools/${id}`).set(auth(user))).body as Record<string, unknown>;

  it('leaves unconfigured tools unbound and says why in the catalog', async () => {
    runtime.fake.script({ text: 'no tools today' });
    await runOnce('what is new?');
    const offered = offeredTools(runtime.fake.requests.at(-1)!);
    expect(offered).not.toContain('web_search');
    expect(offered).not.toContain('web_fetch');
    expect(await catalogEntry('web_search')).toMatchObject({
      available: false,
      unavailable_reason: 'no search provider has an API key (tavily, deepseek, doubao)',
    });
    expect(await catalogEntry('web_fetch')).toMatchObject({ available: false });
  });

  it('binds both from the next run after a key is saved, and the search result reaches the model', async () => {
    const saved = await runtime.ctx.http
      .put(SETTINGS)
      .set(auth(root))
      .send({ api_keys: { tavily: KEY } });
    expect(saved.status).toBe(200);
    expect(await catalogEntry('web_search')).toMatchObject({ available: true, unavailable_reason: null });

    runtime.fake.script(
      { toolCalls: [{ id: 'call_search', name: 'web_search', args: { query: 'release 4.0', count: 2 } }] },
      { text: 'Version 4.0 adds streaming.' },
    );
    const runId = await runOnce('what is new in 4.0?');
    const first = runtime.fake.requests.at(-2)!;
    expect(offeredTools(first)).toEqual(expect.arrayContaining(['web_search', 'web_fetch']));
    const [result] = (await storedEvents(runtime.ctx, runId)).filter((e) => e.type === 'tool_result');
    expect(result.payload).toMatchObject({
      tool_call_id: 'call_search',
      name: 'web_search',
      is_error: false,
    });
    const content = JSON.parse((result.payload as { content: string }).content) as Record<string, unknown>;
    expect(content).toMatchObject({ provider: 'tavily', query: 'release 4.0' });
    expect(content.results).toHaveLength(2);
    expect(content).not.toHaveProperty('error');
  });

  it('marks a failed search as an error in the tool result, distinct from a success', async () => {
    tavily.failWith(432, { detail: { error: 'plan limit exceeded' } });
    runtime.fake.script(
      { toolCalls: [{ id: 'call_quota', name: 'web_search', args: { query: 'release' } }] },
      { text: 'The search failed.' },
    );
    const runId = await runOnce('search again');
    tavily.reset();
    const [result] = (await storedEvents(runtime.ctx, runId)).filter((e) => e.type === 'tool_result');
    expect(result.payload).toMatchObject({ name: 'web_search', is_error: true });
    const content = JSON.parse((result.payload as { content: string }).content) as {
      error: { code: string };
    };
    expect(content.error.code).toBe('web_search.vendor_rate_limited');
    expect((result.payload as { content: string }).content).not.toContain(KEY);
  });

  it('unbinds search from the next run when it is switched off, keeping fetch', async () => {
    await runtime.ctx.http.put(SETTINGS).set(auth(root)).send({ search_provider: 'none' });
    runtime.fake.script({ text: 'ok' });
    await runOnce('anything?');
    const offered = offeredTools(runtime.fake.requests.at(-1)!);
    expect(offered).not.toContain('web_search');
    expect(offered).toContain('web_fetch');
  });
});
