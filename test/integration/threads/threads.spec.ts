import { TestContext, type TestUser } from '../../support/test-app';

describe('threads', () => {
  let ctx: TestContext;
  let alice: TestUser;
  let bob: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    ctx = await TestContext.start();
    alice = await ctx.newUser();
    bob = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it('creates a thread with a usable agent and its own project workdir', async () => {
    const res = await ctx.http
      .post('/api/threads')
      .set(as(alice))
      .send({ agent_slug: 'default-chatbot', title: ' Plan ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ agent_slug: 'default-chatbot', title: 'Plan' });
    expect(res.body.workdir).toBe(`/home/gem/user-data/workdir/t-${res.body.id}/`);
    const [row] = await ctx.dataSource.query(`SELECT user_id, agent_slug FROM threads WHERE id = $1`, [
      res.body.id,
    ]);
    expect(row).toEqual({ user_id: alice.id, agent_slug: 'default-chatbot' });
  });

  it('refuses an unknown agent with 422 and creates nothing', async () => {
    const before = await ctx.dataSource.query(`SELECT count(*)::int AS n FROM threads WHERE user_id = $1`, [
      alice.id,
    ]);
    const res = await ctx.http.post('/api/threads').set(as(alice)).send({ agent_slug: 'no-such-agent' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('threads.unknown_agent');
    expect(
      await ctx.dataSource.query(`SELECT count(*)::int AS n FROM threads WHERE user_id = $1`, [alice.id]),
    ).toEqual(before);
  });

  it('is idempotent with request_id, and 409 for another payload under the same id', async () => {
    const body = { agent_slug: 'default-chatbot', title: 'Once', request_id: 'thread-req-1' };
    const first = await ctx.http.post('/api/threads').set(as(alice)).send(body);
    const again = await ctx.http.post('/api/threads').set(as(alice)).send(body);
    expect(again.body.id).toBe(first.body.id);
    const conflict = await ctx.http
      .post('/api/threads')
      .set(as(alice))
      .send({ ...body, title: 'Twice' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('common.request_id_conflict');
    const bobs = await ctx.http.post('/api/threads').set(as(bob)).send(body);
    expect(bobs.body.id).not.toBe(first.body.id);
  });

  it("lists only the caller's threads and hides another user's thread everywhere (404)", async () => {
    const mine = (await ctx.http.post('/api/threads').set(as(alice)).send({ agent_slug: 'default-chatbot' }))
      .body;
    const list = await ctx.http.get('/api/threads').set(as(bob));
    expect(list.body.items.map((t: { id: string }) => t.id)).not.toContain(mine.id);
    const requests = [
      ctx.http.get(`/api/threads/${mine.id}`),
      ctx.http.patch(`/api/threads/${mine.id}`).send({ title: 'stolen' }),
      ctx.http.delete(`/api/threads/${mine.id}`),
      ctx.http.get(`/api/threads/${mine.id}/files`).query({ path: 'a.txt' }),
      ctx.http.get(`/api/threads/${mine.id}/artifacts`),
      ctx.http.post(`/api/threads/${mine.id}/files`).attach('file', Buffer.from('x'), 'x.txt'),
    ];
    for (const request of requests) {
      const res = await request.set(as(bob));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('threads.not_found');
    }
    const [row] = await ctx.dataSource.query(`SELECT title FROM threads WHERE id = $1`, [mine.id]);
    expect(row.title).not.toBe('stolen');
  });

  it('renames and deletes the caller’s thread', async () => {
    const t = (await ctx.http.post('/api/threads').set(as(alice)).send({ agent_slug: 'default-chatbot' }))
      .body;
    const renamed = await ctx.http.patch(`/api/threads/${t.id}`).set(as(alice)).send({ title: 'Renamed' });
    expect(renamed.body.title).toBe('Renamed');
    expect((await ctx.http.delete(`/api/threads/${t.id}`).set(as(alice))).status).toBe(204);
    expect((await ctx.http.get(`/api/threads/${t.id}`).set(as(alice))).status).toBe(404);
  });
});
