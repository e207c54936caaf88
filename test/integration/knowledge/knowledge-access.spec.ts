import { KnowledgeAccess } from '../../../src/modules/knowledge/access/knowledge-access';
import { KnowledgeSettings } from '../../../src/modules/knowledge/settings/knowledge-settings';
import { uploadKbFile } from '../../support/knowledge';
import { auth } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

describe('knowledge bases: who may see, use and change them', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let access: KnowledgeAccess;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
    alice = await ctx.newUser();
    bob = await ctx.newUser();
    access = ctx.app.get(KnowledgeAccess);
  });
  afterAll(() => ctx?.close());

  const listed = async (user: TestUser) =>
    (
      (await ctx.http.get('/api/knowledge-bases').set(auth(user))).body as { items: { kb_id: string }[] }
    ).items.map((kb) => kb.kb_id);

  it('lets only admins create bases, readable by everyone by default', async () => {
    const refused = await ctx.http.post('/api/knowledge-bases').set(auth(alice)).send({ name: 'Mine' });
    expect(refused.status).toBe(403);
    expect(await ctx.dataSource.query(`SELECT 1 FROM knowledge_bases WHERE name = 'Mine'`)).toEqual([]);

    const kbId = await ctx.newKb(admin, { name: 'Open', description: 'for all' });
    const view = await ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(alice));
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      kb_id: kbId,
      name: 'Open',
      description: 'for all',
      owner_id: admin.id,
      share_config: { version: 2, read_scope: { level: 'global' }, manage_scope: null },
      permission: 'read',
    });
    expect((await ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(admin))).body.permission).toBe(
      'manage',
    );
    expect(await listed(alice)).toContain(kbId);
    expect(await access.readableKb(alice.id, kbId)).toEqual({ kbId, name: 'Open', description: 'for all' });
  });

  it('answers 404 on every route to a user outside the read scope, and hides the base from them', async () => {
    const kbId = await ctx.newKb(admin, {
      name: 'Private',
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [alice.id] } },
    });
    await uploadKbFile(ctx, admin, kbId, 'a.md', '# A\n\ntext');
    const [file] = await ctx.dataSource.query<{ id: string }[]>(
      `SELECT id FROM knowledge_files WHERE kb_id = $1`,
      [kbId],
    );
    const requests = [
      ctx.http.get(`/api/knowledge-bases/${kbId}`),
      ctx.http.patch(`/api/knowledge-bases/${kbId}`).send({ name: 'x' }),
      ctx.http.delete(`/api/knowledge-bases/${kbId}`),
      ctx.http.get(`/api/knowledge-bases/${kbId}/files`),
      ctx.http.get(`/api/knowledge-bases/${kbId}/files/${file.id}`),
      ctx.http.delete(`/api/knowledge-bases/${kbId}/files/${file.id}`),
      ctx.http.post(`/api/knowledge-bases/${kbId}/query`).send({ query: 'text' }),
      ctx.http.post(`/api/knowledge-bases/${kbId}/files`).attach('file', Buffer.from('x'), 'b.md'),
    ];
    for (const [index, req] of requests.entries()) {
      const res = await req.set(auth(bob));
      expect({ index, status: res.status, code: res.body.code }).toEqual({
        index,
        status: 404,
        code: 'knowledge.not_found',
      });
    }
    expect(await listed(bob)).not.toContain(kbId);
    expect(await listed(alice)).toContain(kbId);
    expect(await access.readableKb(bob.id, kbId)).toBeNull();
    expect((await access.readableKbs(bob.id)).map((kb) => kb.kbId)).not.toContain(kbId);
    expect((await access.readableKbs(alice.id)).map((kb) => kb.kbId)).toContain(kbId);
    // The base and its file are untouched.
    expect(await ctx.dataSource.query(`SELECT name FROM knowledge_bases WHERE id = $1`, [kbId])).toEqual([
      { name: 'Private' },
    ]);
    expect(await ctx.dataSource.query(`SELECT 1 FROM knowledge_files WHERE id = $1`, [file.id])).toHaveLength(
      1,
    );
  });

  it('lets a reader read and query but not upload, change or delete (403)', async () => {
    const kbId = await ctx.newKb(admin, { name: 'Read only' });
    const upload = await ctx.http
      .post(`/api/knowledge-bases/${kbId}/files`)
      .set(auth(alice))
      .attach('file', Buffer.from('x'), 'b.md');
    expect([upload.status, upload.body.code]).toEqual([403, 'knowledge.manage_forbidden']);
    const patch = await ctx.http
      .patch(`/api/knowledge-bases/${kbId}`)
      .set(auth(alice))
      .send({ name: 'Renamed' });
    expect([patch.status, patch.body.code]).toEqual([403, 'knowledge.manage_forbidden']);
    const del = await ctx.http.delete(`/api/knowledge-bases/${kbId}`).set(auth(alice));
    expect(del.status).toBe(403);
    const query = await ctx.http
      .post(`/api/knowledge-bases/${kbId}/query`)
      .set(auth(alice))
      .send({ query: 'x' });
    expect(query.status).toBe(200);
    expect(await ctx.dataSource.query(`SELECT name FROM knowledge_bases WHERE id = $1`, [kbId])).toEqual([
      { name: 'Read only' },
    ]);
    expect(await ctx.dataSource.query(`SELECT 1 FROM knowledge_files WHERE kb_id = $1`, [kbId])).toEqual([]);
  });

  it('lets a normal user who manages a base share it with users only (403 for other levels)', async () => {
    const kbId = await ctx.newKb(admin, {
      name: 'Team',
      share_config: {
        version: 2,
        read_scope: { level: 'users', user_ids: [alice.id, bob.id] },
        manage_scope: { level: 'users', user_ids: [alice.id] },
      },
    });
    for (const scope of [
      { level: 'global' },
      { level: 'department', department_ids: [alice.departmentId] },
    ]) {
      const res = await ctx.http
        .patch(`/api/knowledge-bases/${kbId}`)
        .set(auth(alice))
        .send({
          share_config: {
            version: 2,
            read_scope: scope,
            manage_scope: { level: 'users', user_ids: [alice.id] },
          },
        });
      expect([res.status, res.body.code]).toEqual([403, 'knowledge.share_scope_forbidden']);
    }
    const outside = await ctx.http
      .patch(`/api/knowledge-bases/${kbId}`)
      .set(auth(alice))
      .send({
        share_config: {
          version: 2,
          read_scope: { level: 'users', user_ids: [alice.id] },
          manage_scope: { level: 'users', user_ids: [bob.id] },
        },
      });
    expect([outside.status, outside.body.code]).toEqual([422, 'knowledge.manage_scope_outside_read_scope']);
    const [stored] = await ctx.dataSource.query<{ share_config: unknown }[]>(
      `SELECT share_config FROM knowledge_bases WHERE id = $1`,
      [kbId],
    );
    expect(stored.share_config).toMatchObject({ read_scope: { user_ids: [alice.id, bob.id] } });

    const narrowed = await ctx.http
      .patch(`/api/knowledge-bases/${kbId}`)
      .set(auth(alice))
      .send({
        name: 'Team (alice)',
        share_config: {
          version: 2,
          read_scope: { level: 'users', user_ids: [alice.id] },
          manage_scope: { level: 'users', user_ids: [alice.id] },
        },
      });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body).toMatchObject({ name: 'Team (alice)', permission: 'manage' });
    expect((await ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(bob))).status).toBe(404);
    // Admins may use every level.
    const widened = await ctx.http
      .patch(`/api/knowledge-bases/${kbId}`)
      .set(auth(admin))
      .send({
        share_config: { version: 2, read_scope: { level: 'department', department_ids: [bob.departmentId] } },
      });
    expect(widened.status).toBe(200);
    expect((await ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(bob))).status).toBe(200);
  });

  it('gives a disabled account no base at all', async () => {
    const kbId = await ctx.newKb(admin, { name: 'Everyone' });
    const disabled = await ctx.newUser({ disabled: true });
    expect(await access.readableKbs(disabled.id)).toEqual([]);
    expect(await access.readableKb(disabled.id, kbId)).toBeNull();
    expect(await access.readableKb(alice.id, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await access.readableKb(alice.id, 'not-a-uuid')).toBeNull();
  });

  it('deletes a base with its files', async () => {
    const kbId = await ctx.newKb(admin, { name: 'Doomed' });
    await uploadKbFile(ctx, admin, kbId, 'd.md', '# D');
    expect((await ctx.http.delete(`/api/knowledge-bases/${kbId}`).set(auth(admin))).status).toBe(204);
    expect(await ctx.dataSource.query(`SELECT 1 FROM knowledge_files WHERE kb_id = $1`, [kbId])).toEqual([]);
    expect((await ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(admin))).status).toBe(404);
  });
});

describe('knowledge settings', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx?.close());

  it('is admin-only, defaults to on and applies a change at once', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    const user = await ctx.newUser();
    const settings = ctx.app.get(KnowledgeSettings);
    expect((await ctx.http.get('/api/system/settings/knowledge').set(auth(user))).status).toBe(403);
    const put = await ctx.http.put('/api/system/settings/knowledge').set(auth(user)).send({ enabled: false });
    expect(put.status).toBe(403);
    expect(await settings.isEnabled()).toBe(true);

    expect((await ctx.http.get('/api/system/settings/knowledge').set(auth(admin))).body).toEqual({
      enabled: true,
    });
    const bad = await ctx.http.put('/api/system/settings/knowledge').set(auth(admin)).send({ enabled: 'no' });
    expect(bad.status).toBe(400);
    const off = await ctx.http
      .put('/api/system/settings/knowledge')
      .set(auth(admin))
      .send({ enabled: false });
    expect(off.body).toEqual({ enabled: false });
    expect(await settings.isEnabled()).toBe(false);
    expect((await ctx.http.get('/api/system/settings/knowledge').set(auth(admin))).body).toEqual({
      enabled: false,
    });
    await ctx.http.put('/api/system/settings/knowledge').set(auth(admin)).send({ enabled: true });
    expect(await settings.isEnabled()).toBe(true);
  });
});
