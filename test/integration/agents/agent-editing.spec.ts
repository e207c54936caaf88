import { AgentsService } from '../../../src/modules/agents/agents.service';
import { TestContext, type TestUser } from '../../support/test-app';

describe('agents: visibility, management and the merge rules of an edit', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let user: TestUser;
  let stranger: TestUser;
  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const create = async (u: TestUser, body: object) => {
    const res = await ctx.http.post('/api/agents').set(auth(u)).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const patch = (u: TestUser, slug: string, body: object) =>
    ctx.http.patch(`/api/agents/${slug}`).set(auth(u)).send(body);
  const savedConfig = async (slug: string) =>
    (await ctx.dataSource.query(`SELECT config FROM agents WHERE slug = $1`, [slug]))[0].config;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    stranger = await ctx.newUser();
    // Subagents only the admin can read, and ones the user can read.
    await create(admin, { name: 'Hidden', slug: 'hidden-sub', is_subagent: true });
    await create(admin, { name: 'Hidden 2', slug: 'hidden-sub-2', is_subagent: true });
    await create(user, { name: 'Visible A', slug: 'visible-a', is_subagent: true });
    await create(user, { name: 'Visible B', slug: 'visible-b', is_subagent: true });
  });
  afterAll(() => ctx.close());

  it("hides another user's agent everywhere with 404", async () => {
    await create(user, { name: 'Private', slug: 'private-agent' });
    for (const res of [
      await ctx.http.get('/api/agents/private-agent').set(auth(stranger)),
      await patch(stranger, 'private-agent', { name: 'Taken over' }),
      await ctx.http.delete('/api/agents/private-agent').set(auth(stranger)),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('agents.not_found');
    }
    const list = await ctx.http.get('/api/agents?include_subagents=true').set(auth(stranger));
    expect(list.body.items.map((a: { slug: string }) => a.slug)).not.toContain('private-agent');
    const [row] = await ctx.dataSource.query(`SELECT name FROM agents WHERE slug = 'private-agent'`);
    expect(row.name).toBe('Private');
    await expect(ctx.app.get(AgentsService).findUsable(stranger, 'private-agent')).resolves.toBeNull();
    const usable = await ctx.app.get(AgentsService).findUsable(user, 'private-agent');
    expect(usable?.config.subagents).toEqual(['general-purpose']);
  });

  it('describes the edit form in the language the caller prefers: English unless Chinese comes first', async () => {
    await create(user, { name: 'Bilingual', slug: 'bilingual' });
    const form = async (language?: string) => {
      const request = ctx.http.get('/api/agents/bilingual').set(auth(user));
      if (language !== undefined) request.set('Accept-Language', language);
      const items: { field: string; name: string }[] = (await request).body.configurable_items;
      return Object.fromEntries(items.map((item) => [item.field, item.name]));
    };
    expect(await form()).toMatchObject({ system_prompt: 'System prompt', tools: 'Tools' });
    expect(await form('en-GB,zh;q=0.8')).toMatchObject({ system_prompt: 'System prompt' });
    expect(await form('zh-CN,zh;q=0.9,en;q=0.8')).toMatchObject({
      system_prompt: '系统提示词',
      tools: '工具',
    });
    expect(await form('fr-FR')).toMatchObject({ approval: 'Tool approval' });
    const patched = await patch(user, 'bilingual', { name: 'Bilingue' }).set('Accept-Language', 'zh-TW');
    expect(patched.body.configurable_items[0].name).toBe('系统提示词');
  });

  it('lets a reader read but not change or delete (403)', async () => {
    await create(user, {
      name: 'Shared read',
      slug: 'shared-read',
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [user.id, stranger.id] } },
    });
    const read = await ctx.http.get('/api/agents/shared-read').set(auth(stranger));
    expect(read.status).toBe(200);
    expect(read.body.permission).toBe('read');
    expect(read.body.configurable_items).toEqual([]);
    for (const res of [
      await patch(stranger, 'shared-read', { name: 'Renamed' }),
      await ctx.http.delete('/api/agents/shared-read').set(auth(stranger)),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('agents.manage_forbidden');
    }
    const [row] = await ctx.dataSource.query(`SELECT name FROM agents WHERE slug = 'shared-read'`);
    expect(row.name).toBe('Shared read');
  });

  describe('an agent an admin shares with a normal user as manager', () => {
    const slug = 'team-agent';
    beforeAll(async () => {
      const both = { level: 'users', user_ids: [admin.id, user.id] };
      await create(admin, {
        name: 'Team',
        slug,
        config: { subagents: ['hidden-sub', 'general-purpose'], max_execution_steps: 50 },
        share_config: { version: 2, read_scope: both, manage_scope: both },
      });
    });
    const setSubagents = (subagents: string[]) => patch(admin, slug, { config: { subagents } });

    it('shows the user only the fields and options they may use', async () => {
      const res = await ctx.http.get(`/api/agents/${slug}`).set(auth(user));
      expect(res.body.permission).toBe('manage');
      expect(res.body.config.max_execution_steps).toBe(50);
      const fields = res.body.configurable_items.map((i: { field: string }) => i.field);
      expect(fields).not.toContain('max_execution_steps');
      expect(fields).toEqual(expect.arrayContaining(['system_prompt', 'model', 'tools', 'subagents']));
      const subagents = res.body.configurable_items.find((i: { field: string }) => i.field === 'subagents');
      expect(subagents.options.map((o: { value: string }) => o.value).sort()).toEqual([
        'general-purpose',
        'visible-a',
        'visible-b',
      ]);
      const asAdmin = await ctx.http.get(`/api/agents/${slug}`).set(auth(admin));
      const adminFields = asAdmin.body.configurable_items.map((i: { field: string }) => i.field);
      expect(adminFields).toContain('max_execution_steps');
    });

    it('silently keeps the admin-only field when the user submits it', async () => {
      const res = await patch(user, slug, { config: { max_execution_steps: 7, system_prompt: 'Be brief.' } });
      expect(res.status).toBe(200);
      expect(await savedConfig(slug)).toMatchObject({ max_execution_steps: 50, system_prompt: 'Be brief.' });
    });

    it('keeps hidden references first and appends the new visible ones', async () => {
      const res = await patch(user, slug, { config: { subagents: ['visible-a', 'general-purpose'] } });
      expect(res.status).toBe(200);
      expect(res.body.config.subagents).toEqual(['hidden-sub', 'visible-a', 'general-purpose']);
      expect((await savedConfig(slug)).subagents).toEqual(['hidden-sub', 'visible-a', 'general-purpose']);

      const resubmitted = await patch(user, slug, { config: { subagents: ['hidden-sub', 'visible-b'] } });
      expect(resubmitted.body.config.subagents).toEqual(['hidden-sub', 'visible-b']);
    });

    it('refuses a new hidden reference with 422 and changes nothing', async () => {
      const res = await patch(user, slug, {
        config: { subagents: ['visible-a', 'hidden-sub-2', 'no-such'] },
      });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('agents.unknown_reference');
      expect(res.body.details).toEqual({ field: 'subagents', ids: ['hidden-sub-2', 'no-such'] });
      expect((await savedConfig(slug)).subagents).toEqual(['hidden-sub', 'visible-b']);
    });

    it('clears everything with [] and replaces the list with "all"', async () => {
      expect((await setSubagents(['hidden-sub', 'general-purpose'])).status).toBe(200);
      expect((await patch(user, slug, { config: { subagents: [] } })).body.config.subagents).toEqual([]);

      expect((await setSubagents(['hidden-sub', 'general-purpose'])).status).toBe(200);
      const all = await patch(user, slug, { config: { subagents: 'all' } });
      expect(all.body.config.subagents).toBe('all');
      expect((await savedConfig(slug)).subagents).toBe('all');
    });

    it('changes only the submitted fields', async () => {
      const before = await savedConfig(slug);
      const res = await patch(user, slug, { name: 'Team renamed' });
      expect(res.body.name).toBe('Team renamed');
      expect(await savedConfig(slug)).toEqual(before);
    });
  });
});
