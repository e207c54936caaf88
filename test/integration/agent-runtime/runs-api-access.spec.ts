import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { countRows, eventRows, runRow } from '../../support/runs/run-rows';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { TestContext, type TestUser } from '../../support/test-app';

// APP_ROLE=api: runs stay queued, so "changed nothing" is read from rows that nothing else touches.
describe('runs HTTP API: owners only, malformed ids and bodies', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let stranger: TestUser;
  let threadId: string;
  let runId: string;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    owner = await ctx.newUser();
    stranger = await ctx.newUser();
    threadId = await newThread(ctx, owner);
    runId = (await startRun(ctx, owner, threadId, { input: 'Private question' })).run_id;
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('answers 404 runs.not_found to another user reading a run or its events', async () => {
    const run = await ctx.http.get(`/api/runs/${runId}`).set(auth(stranger));
    expect(run.status).toBe(404);
    expect(run.body).toMatchObject({ status_code: 404, code: 'runs.not_found' });
    expect(JSON.stringify(run.body)).not.toContain('Private question');

    const stream = await readSse(await listeningUrl(ctx.app.getHttpServer()), `/api/runs/${runId}/events`, {
      ...auth(stranger),
    });
    expect(stream.status).toBe(404);
    expect(stream.frames).toEqual([]);
    expect(JSON.parse(stream.body ?? '{}')).toMatchObject({ code: 'runs.not_found' });

    // The owner reads both.
    expect((await ctx.http.get(`/api/runs/${runId}`).set(auth(owner))).status).toBe(200);
  });

  it('answers 404 runs.not_found to another user cancelling a run, and the run is untouched', async () => {
    const res = await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(stranger));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('runs.not_found');
    const row = await runRow(ctx, runId);
    expect(row.status).toBe('queued');
    expect(row.finished_at).toBeNull();
    expect((await eventRows(ctx, runId)).map((e) => e.type)).toEqual(['status']);
  });

  it('answers 404 threads.not_found to another user starting a run in the thread, inserting nothing', async () => {
    const res = await ctx.http
      .post(`/api/threads/${threadId}/runs`)
      .set(auth(stranger))
      .send({ input: 'Let me in' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('threads.not_found');
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
    expect(await countRows(ctx, 'messages', 'thread_id', threadId)).toBe(1);
    expect(await countRows(ctx, 'runs', 'user_id', stranger.id)).toBe(0);
  });

  it('answers 404 threads.not_found to another user reading the messages or state of a thread', async () => {
    for (const path of ['messages', 'state']) {
      const res = await ctx.http.get(`/api/threads/${threadId}/${path}`).set(auth(stranger));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('threads.not_found');
      expect(JSON.stringify(res.body)).not.toContain('Private question');
    }
    const mine = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(owner));
    expect(mine.body.items.map((m: { content: string }) => m.content)).toEqual(['Private question']);
  });

  it('answers 404 for ids that do not exist', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await ctx.http.get(`/api/runs/${unknown}`).set(auth(owner))).body.code).toBe('runs.not_found');
    expect((await ctx.http.post(`/api/runs/${unknown}/cancel`).set(auth(owner))).body.code).toBe(
      'runs.not_found',
    );
    const run = await ctx.http.post(`/api/threads/${unknown}/runs`).set(auth(owner)).send({ input: 'x' });
    expect(run.status).toBe(404);
    expect(run.body.code).toBe('threads.not_found');
  });

  it('answers 400 common.validation_failed for malformed run and thread ids', async () => {
    const requests: [string, 'get' | 'post'][] = [
      ['/api/runs/not-a-uuid', 'get'],
      ['/api/runs/not-a-uuid/events', 'get'],
      ['/api/runs/not-a-uuid/cancel', 'post'],
      ['/api/threads/not-a-uuid/runs', 'post'],
      ['/api/threads/not-a-uuid/messages', 'get'],
      ['/api/threads/not-a-uuid/state', 'get'],
    ];
    for (const [path, method] of requests) {
      const req = ctx.http[method](path).set(auth(owner));
      const res = method === 'post' ? await req.send({ input: 'hello' }) : await req;
      expect({ path, status: res.status, code: res.body.code, fields: res.body.details?.fields }).toEqual({
        path,
        status: 400,
        code: 'common.validation_failed',
        fields: [{ field: 'id', messages: ['id must be a UUID'] }],
      });
    }
    expect(await countRows(ctx, 'runs', 'user_id', owner.id)).toBe(1);
  });

  it.each([
    ['a missing input', {}, 'input'],
    ['an empty input', { input: '' }, 'input'],
    ['a non-string input', { input: 42 }, 'input'],
    ['an unknown queue_policy', { input: 'hi', queue_policy: 'later' }, 'queue_policy'],
    ['an unknown field', { input: 'hi', priority: 'high' }, 'priority'],
    ['a malformed request_id', { input: 'hi', request_id: 'has spaces' }, 'request_id'],
  ])('refuses %s with 400 common.validation_failed and creates no run', async (_, body, field) => {
    const res = await ctx.http.post(`/api/threads/${threadId}/runs`).set(auth(owner)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('common.validation_failed');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
  });

  it('refuses a bad page size or cursor on the messages of a thread with 400', async () => {
    for (const query of [
      'limit=0',
      'limit=201',
      'cursor=garbage',
      `cursor=${Buffer.from('p:abc').toString('base64url')}`,
      `cursor=${Buffer.from('p:9999999999999999999').toString('base64url')}`,
    ]) {
      const res = await ctx.http.get(`/api/threads/${threadId}/messages?${query}`).set(auth(owner));
      expect({ query, status: res.status, code: res.body.code }).toEqual({
        query,
        status: 400,
        code: 'common.validation_failed',
      });
    }
  });

  it('refuses requests without a token with 401', async () => {
    expect((await ctx.http.get(`/api/runs/${runId}`)).status).toBe(401);
    expect((await ctx.http.post(`/api/threads/${threadId}/runs`).send({ input: 'x' })).status).toBe(401);
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
  });
});
