import { TestContext, type TestUser } from '../../support/test-app';

describe('API keys', () => {
  let ctx: TestContext;
  let owner: TestUser;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    ctx = await TestContext.start();
    owner = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  const createKey = (user: TestUser, body: Record<string, unknown>) =>
    ctx.http.post('/api/api-keys').set(bearer(user.token)).send(body);

  it('creates a key that authenticates as its owner and stores only a hash and a prefix', async () => {
    const res = await createKey(owner, { name: 'ci' });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^yxk_[0-9a-f]{48}$/);
    expect(res.body.key_prefix).toBe(res.body.key.slice(0, 12));

    const me = await ctx.http.get('/api/auth/me').set(bearer(res.body.key));
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(owner.id);

    const [row] = await ctx.dataSource.query(`SELECT * FROM api_keys WHERE id = $1`, [res.body.id]);
    expect(JSON.stringify(row)).not.toContain(res.body.key);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.last_used_at).not.toBeNull();
  });

  it('returns the same id and key when the same request_id is replayed, and 409 for another payload', async () => {
    const first = await createKey(owner, { name: 'replayed', request_id: 'req-1' });
    const replay = await createKey(owner, { name: 'replayed', request_id: 'req-1' });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const rows = await ctx.dataSource.query(`SELECT id FROM api_keys WHERE request_id = 'req-1'`);
    expect(rows).toHaveLength(1);

    const conflict = await createKey(owner, { name: 'something else', request_id: 'req-1' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('common.request_id_conflict');

    const other = await ctx.newUser();
    const sameIdOtherUser = await createKey(other, { name: 'replayed', request_id: 'req-1' });
    expect(sameIdOtherUser.status).toBe(201);
    expect(sameIdOtherUser.body.key).not.toBe(first.body.key);
  });

  it('stops a revoked key at once; only the owner (or a superadmin) can revoke it', async () => {
    const key = (await createKey(owner, { name: 'to revoke' })).body;
    const stranger = await ctx.newUser();
    const admin = await ctx.newUser({ role: 'admin' });
    for (const someoneElse of [stranger, admin]) {
      const denied = await ctx.http.delete(`/api/api-keys/${key.id}`).set(bearer(someoneElse.token));
      expect(denied.status).toBe(404);
    }
    expect((await ctx.http.get('/api/auth/me').set(bearer(key.key))).status).toBe(200);

    const revoked = await ctx.http.delete(`/api/api-keys/${key.id}`).set(bearer(owner.token));
    expect(revoked.status).toBe(204);
    const after = await ctx.http.get('/api/auth/me').set(bearer(key.key));
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('auth.api_key_revoked');

    const other = (await createKey(owner, { name: 'superadmin revokes' })).body;
    const superadmin = await ctx.newUser({ role: 'superadmin' });
    expect((await ctx.http.delete(`/api/api-keys/${other.id}`).set(bearer(superadmin.token))).status).toBe(
      204,
    );
    expect((await ctx.http.get('/api/auth/me').set(bearer(other.key))).status).toBe(401);
  });

  it('refuses an expired key, and a new key whose expiry is already past', async () => {
    const key = (
      await createKey(owner, { name: 'short-lived', expires_at: new Date(Date.now() + 60_000).toISOString() })
    ).body;
    expect((await ctx.http.get('/api/auth/me').set(bearer(key.key))).status).toBe(200);
    await ctx.dataSource.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      key.id,
    ]);
    const expired = await ctx.http.get('/api/auth/me').set(bearer(key.key));
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('auth.api_key_expired');

    const past = await createKey(owner, { name: 'past', expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.details.fields[0].field).toBe('expires_at');
  });

  it('refuses a well-formed but unknown key and a key of a disabled user', async () => {
    const unknown = await ctx.http.get('/api/auth/me').set(bearer(`yxk_${'0'.repeat(48)}`));
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('auth.invalid_api_key');

    const user = await ctx.newUser();
    const key = (await createKey(user, { name: 'soon disabled' })).body;
    await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [user.id]);
    const res = await ctx.http.get('/api/auth/me').set(bearer(key.key));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth.account_disabled');
  });

  it('lists only the caller’s keys without secrets; a superadmin sees every key', async () => {
    const mine = await ctx.newUser();
    const theirs = await ctx.newUser();
    await createKey(mine, { name: 'mine' });
    await createKey(theirs, { name: 'theirs' });

    const list = await ctx.http.get('/api/api-keys').set(bearer(mine.token));
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: { name: string }) => k.name)).toEqual(['mine']);
    expect(list.body.items[0].key).toBeUndefined();
    expect(list.body.items[0]).toMatchObject({ user_id: mine.id, revoked_at: null });

    const superadmin = await ctx.newUser({ role: 'superadmin' });
    const all = await ctx.http.get('/api/api-keys').query({ limit: 200 }).set(bearer(superadmin.token));
    const owners = new Set(all.body.items.map((k: { user_id: string }) => k.user_id));
    expect(owners.has(mine.id) && owners.has(theirs.id)).toBe(true);
  });

  it('lets an API key act with its owner’s role and no more', async () => {
    const key = (await createKey(owner, { name: 'role check' })).body;
    const res = await ctx.http.get('/api/users').set(bearer(key.key));
    expect(res.status).toBe(403);
  });
});
