import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

describe('skills: listing and permissions', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let reader: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
    reader = await ctx.newUser();
    stranger = await ctx.newUser();
  });
  afterAll(() => ctx?.close());

  const row = (slug: string) => ctx.dataSource.getRepository(SkillEntity).findOneBy({ slug });
  const sharedDir = (slug: string) => join(ctx.config.dataDir, 'skills', slug);

  it('lists builtin skills for everyone, with source, permission and enabled', async () => {
    const res = await ctx.http.get('/api/skills').set(auth(stranger));
    expect(res.status).toBe(200);
    const items = (res.body as { items: { slug: string; source: string; permission: string }[] }).items;
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          slug: 'html-preview',
          source: 'builtin',
          permission: 'read',
          enabled: true,
        }),
        expect.objectContaining({ slug: 'deep-research', source: 'builtin', permission: 'read' }),
      ]),
    );
    const asAdmin = await ctx.http.get('/api/skills/html-preview').set(auth(admin));
    expect(asAdmin.body).toMatchObject({ source: 'builtin', permission: 'manage', owner_id: null });
  });

  it("answers 404 for another user's shared skill on every route, and changes nothing", async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('hidden-one'), 'a.md': 'A' });
    const before = await row(slug);
    const calls = [
      ctx.http.get(`/api/skills/${slug}`),
      ctx.http.get(`/api/skills/${slug}/tree`),
      ctx.http.get(`/api/skills/${slug}/files?path=a.md`),
      ctx.http.put(`/api/skills/${slug}/files`).send({ path: 'a.md', content: 'x', revision: 'r' }),
      ctx.http.post(`/api/skills/${slug}/files`).send({ path: 'b.md', content: 'x' }),
      ctx.http.delete(`/api/skills/${slug}/files?path=a.md`),
      ctx.http.put(`/api/skills/${slug}/dependencies`).send({
        tool_dependencies: [],
        mcp_dependencies: [],
        skill_dependencies: [],
      }),
      ctx.http.put(`/api/skills/${slug}/share-config`).send({ version: 2, read_scope: null }),
      ctx.http.put(`/api/skills/${slug}/enabled`).send({ enabled: false }),
      ctx.http.get(`/api/skills/${slug}/export`),
      ctx.http.delete(`/api/skills/${slug}`),
    ];
    for (const call of calls) {
      const res = await call.set(auth(stranger));
      expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
        status: 404,
        code: 'skills.not_found',
      });
    }
    const list = await ctx.http.get('/api/skills').set(auth(stranger));
    expect((list.body as { items: { slug: string }[] }).items.map((i) => i.slug)).not.toContain(slug);
    expect(await row(slug)).toEqual(before);
    expect(existsSync(join(sharedDir(slug), 'a.md'))).toBe(true);
    expect(existsSync(join(sharedDir(slug), 'b.md'))).toBe(false);
  });

  it('lets a read-scope user read but not change (403), and a manage-scope user manage', async () => {
    const manager = await ctx.newUser();
    const slug = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('scoped-one'), 'a.md': 'A' },
      {
        version: 2,
        read_scope: { level: 'users', user_ids: [reader.id, manager.id] },
        manage_scope: { level: 'users', user_ids: [manager.id] },
      },
    );
    const read = await ctx.http.get(`/api/skills/${slug}/files?path=a.md`).set(auth(reader));
    expect(read.body).toMatchObject({ path: 'a.md', content: 'A' });
    const detail = await ctx.http.get(`/api/skills/${slug}`).set(auth(reader));
    expect(detail.body).toMatchObject({ permission: 'read', source: 'shared', owner_id: admin.id });
    const revision = (read.body as { revision: string }).revision;
    const writes = [
      ctx.http.put(`/api/skills/${slug}/files`).send({ path: 'a.md', content: 'B', revision }),
      ctx.http.post(`/api/skills/${slug}/files`).send({ path: 'b.md', content: 'x' }),
      ctx.http.delete(`/api/skills/${slug}/files?path=a.md`),
      ctx.http.put(`/api/skills/${slug}/enabled`).send({ enabled: false }),
      ctx.http.get(`/api/skills/${slug}/export`),
      ctx.http.delete(`/api/skills/${slug}`),
    ];
    for (const call of writes) {
      const res = await call.set(auth(reader));
      expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
        status: 403,
        code: 'skills.manage_forbidden',
      });
    }
    expect((await row(slug))?.enabled).toBe(true);
    const saved = await ctx.http
      .put(`/api/skills/${slug}/files`)
      .set(auth(manager))
      .send({ path: 'a.md', content: 'B', revision });
    expect(saved.status).toBe(200);
    const after = await ctx.http.get(`/api/skills/${slug}/files?path=a.md`).set(auth(reader));
    expect((after.body as { content: string }).content).toBe('B');
  });

  it('refuses department and global scopes from a normal user (403) and keeps the config', async () => {
    const owner = await ctx.newUser();
    // A normal user owning a shared skill (an admin may later hand it over; the rule is the user's role).
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('owned-by-user') });
    await ctx.dataSource.getRepository(SkillEntity).update({ slug }, { ownerId: owner.id });
    for (const read_scope of [
      { level: 'global' },
      { level: 'department', department_ids: [owner.departmentId] },
    ]) {
      const res = await ctx.http
        .put(`/api/skills/${slug}/share-config`)
        .set(auth(owner))
        .send({ version: 2, read_scope });
      expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
        status: 403,
        code: 'skills.share_scope_forbidden',
      });
    }
    expect((await row(slug))?.shareConfig.read_scope).toEqual({ level: 'users', user_ids: [admin.id] });
    const ok = await ctx.http
      .put(`/api/skills/${slug}/share-config`)
      .set(auth(owner))
      .send({ version: 2, read_scope: { level: 'users', user_ids: [owner.id, reader.id] } });
    expect(ok.status).toBe(200);
    expect((await row(slug))?.shareConfig.read_scope).toEqual({
      level: 'users',
      user_ids: [owner.id, reader.id],
    });
  });

  it('keeps builtin files, dependencies and share config unchangeable (409) but lets admins toggle enabled', async () => {
    const tree = await ctx.http.get('/api/skills/html-preview/files?path=SKILL.md').set(auth(admin));
    const revision = (tree.body as { revision: string }).revision;
    const refused = [
      ctx.http.put('/api/skills/html-preview/files').send({ path: 'SKILL.md', content: 'x', revision }),
      ctx.http.delete('/api/skills/html-preview'),
      ctx.http.put('/api/skills/html-preview/share-config').send({ version: 2, read_scope: null }),
    ];
    for (const call of refused) {
      const res = await call.set(auth(admin));
      expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
        status: 409,
        code: 'skills.builtin_immutable',
      });
    }
    const byUser = await ctx.http
      .put('/api/skills/html-preview/enabled')
      .set(auth(reader))
      .send({ enabled: false });
    expect(byUser.status).toBe(403);
    const off = await ctx.http
      .put('/api/skills/html-preview/enabled')
      .set(auth(admin))
      .send({ enabled: false });
    expect(off.body).toMatchObject({ enabled: false });
    expect((await row('html-preview'))?.enabled).toBe(false);
    await ctx.http.put('/api/skills/html-preview/enabled').set(auth(admin)).send({ enabled: true });
  });

  it('lets a personal skill shadow a shared one for its owner only, and restores it on delete', async () => {
    const slug = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('shadowed', [], 'shared body\n') },
      { version: 2, read_scope: { level: 'users', user_ids: [admin.id, reader.id, stranger.id] } },
    );
    await ctx.newPersonalSkill(reader, { 'SKILL.md': skillMd('shadowed', [], 'personal body\n') });
    const list = await ctx.http.get('/api/skills').set(auth(reader));
    const mine = (
      list.body as { items: { slug: string; source: string; shadowed_by_personal: boolean }[] }
    ).items.filter((item) => item.slug === slug);
    expect(mine).toEqual([
      expect.objectContaining({ source: 'personal', shadowed_by_personal: false }),
      expect.objectContaining({ source: 'shared', shadowed_by_personal: true }),
    ]);
    const root = (user: TestUser) => ctx.http.get(`/api/skills/${slug}/files?path=SKILL.md`).set(auth(user));
    expect((await root(reader)).body.content).toContain('personal body');
    expect((await root(stranger)).body.content).toContain('shared body');
    const other = await ctx.http.get('/api/skills').set(auth(stranger));
    expect(
      (other.body as { items: { slug: string; shadowed_by_personal: boolean }[] }).items.find(
        (i) => i.slug === slug,
      ),
    ).toMatchObject({ shadowed_by_personal: false });

    expect((await ctx.http.delete(`/api/skills/personal/${slug}`).set(auth(stranger))).status).toBe(404);
    expect((await ctx.http.delete(`/api/skills/personal/${slug}`).set(auth(reader))).status).toBe(204);
    expect((await root(reader)).body.content).toContain('shared body');
    expect((await ctx.http.get(`/api/skills/${slug}`).set(auth(reader))).body).toMatchObject({
      source: 'shared',
    });
  });
});
