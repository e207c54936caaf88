import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../../support/runs/run-helpers';
import { storedEvents } from '../../../support/runs/run-event-rows';
import { TestContext, type TestUser } from '../../../support/test-app';

/** No OPENAI_API_KEY and the default OpenAI URL: nothing to talk to, so a run fails at once. */
describe('a run on a deployment without a configured model', () => {
  let ctx: TestContext;
  let user: TestUser;
  const outbound: string[] = [];
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    // Every HTTP request the process makes goes through fetch (the OpenAI SDK's too): count them.
    globalThis.fetch = (input, init) => {
      outbound.push(input instanceof Request ? input.url : String(input));
      return realFetch(input, init);
    };
    ctx = await TestContext.start({ APP_ROLE: 'all' });
    user = await ctx.newUser();
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await ctx?.close();
  });

  it('fails with models.not_configured naming the variables to set, without any model request', async () => {
    const threadId = await newThread(ctx, user);
    const run = await startRun(ctx, user, threadId, { input: 'hello' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');

    const got = await ctx.http.get(`/api/runs/${run.run_id}`).set(auth(user));
    expect(got.body.error).toMatchObject({ code: 'models.not_configured' });
    for (const variable of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'DEFAULT_MODEL'])
      expect(got.body.error.message).toContain(variable);
    const events = await storedEvents(ctx, run.run_id);
    // The default agent's web tools are reported left out (no vendor key) before the model is needed.
    expect(events.map((e) => e.type)).toEqual([
      'status',
      'status',
      'unavailable',
      'unavailable',
      'error',
      'status',
      'done',
    ]);
    expect(events.find((e) => e.type === 'error')?.payload).toMatchObject({ code: 'models.not_configured' });
    expect(outbound.filter((url) => url.includes('api.openai.com'))).toEqual([]);
  });
});
