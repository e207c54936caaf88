import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { AgentEntity } from '../../../src/modules/agents/agent.entity';
import { AgentsRepository } from '../../../src/modules/agents/agents.repository';
import { BuiltinAgents } from '../../../src/modules/agents/builtin-agents';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';
import { TestContext, type TestUser } from '../../support/test-app';

describe('agents: create, validate, list, builtin agents', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let user: TestUser;
  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const create = (u: TestUser, body: object) => ctx.http.post('/api/agents').set(auth(u)).send(body);
  const agentRow = async (slug: string) =>
    (await ctx.dataSource.query(`SELECT * FROM agents WHERE slug = $1`, [slug]))[0];

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    const registry = ctx.app.get(ToolRegistry);
    const noop = (name: string) => tool(() => 'ok', { name, description: name, schema: z.object({}) });
    registry.register(noop('debug_probe'), { category: 'debug', tags: [], displayName: 'probe' });
  });
  afterAll(() => ctx.close());

  it('reads an agent by id (the prepared statement before each tool call) as TypeORM loads it', async () => {
    const res = await create(user, { name: 'By Id', description: 'read by id' });
    expect(res.status).toBe(201);
    const { id } = (await agentRow('by-id')) as { id: string };
    const repository = ctx.app.get(AgentsRepository);
    const read = await repository.findById(id);
    expect(read).toBeInstanceOf(AgentEntity);
    expect(read).toEqual(await ctx.dataSource.getRepository(AgentEntity).findOneBy({ id }));
    expect(read?.createdAt).toBeInstanceOf(Date);
    expect(await repository.findById('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('creates an agent with the default config and reads it back, row included', async () => {
    const res = await create(user, { name: 'My Helper' });
    expect(res.status).toBe(201);
    const expectedConfig = {
      system_prompt: '',
      model: ctx.config.llm.defaultModel,
      max_execution_steps: 100,
      tools: 'all',
      knowledges: 'all',
      skills: 'all',
      subagents: ['general-purpose'],
      mcps: [],
      preload_skills: [],
    };
    expect(res.body).toMatchObject({
      slug: 'my-helper',
      name: 'My Helper',
      description: null,
      is_subagent: false,
      builtin: false,
      owner_id: user.id,
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [user.id] }, manage_scope: null },
      config: expectedConfig,
      permission: 'manage',
    });
    expect(res.body.id).toBeUndefined();

    const read = await ctx.http.get('/api/agents/my-helper').set(auth(user));
    expect(read.status).toBe(200);
    expect(read.body.config).toEqual(expectedConfig);
    const row = await agentRow('my-helper');
    expect(row).toMatchObject({
      owner_id: user.id,
      builtin: false,
      is_subagent: false,
      config: expectedConfig,
    });
  });

  it('generates slugs from the name with -2, -3 on a clash and refuses a taken explicit slug', async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) slugs.push((await create(user, { name: 'Report Writer!' })).body.slug);
    expect(slugs).toEqual(['report-writer', 'report-writer-2', 'report-writer-3']);
    expect((await create(user, { name: '写作助手' })).body.slug).toBe('agent');

    const taken = await create(user, { name: 'Other', slug: 'report-writer' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('agents.slug_taken');
    const bad = await create(user, { name: 'Other', slug: 'Bad--Slug' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('common.validation_failed');
  });

  it.each([
    ['null', null],
    ['a string other than "all"', 'some'],
    ['a non-string member', [1]],
    ['duplicate ids', ['read_file', 'read_file']],
  ])('refuses %s in a resource field with 400', async (_label, value) => {
    const res = await create(user, { name: 'Invalid', slug: 'invalid-agent', config: { tools: value } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('common.validation_failed');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toEqual(['config.tools']);
    expect(await agentRow('invalid-agent')).toBeUndefined();
  });

  it('refuses unknown config keys and a null model with 400', async () => {
    const res = await create(user, { name: 'Invalid', config: { temperature: 0.2, model: null } });
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'config.model',
      'config.temperature',
    ]);
  });

  it('refuses tool ids that are unknown or debug tools with 422 naming them', async () => {
    const res = await create(user, {
      name: 'Tools',
      slug: 'tools-agent',
      config: { tools: ['read_file', 'no_such_tool', 'debug_probe', 'ask_user_question'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('agents.unknown_reference');
    expect(res.body.details).toEqual({ field: 'tools', ids: ['no_such_tool', 'debug_probe'] });
    expect(await agentRow('tools-agent')).toBeUndefined();

    const ok = await create(user, { name: 'Tools', slug: 'tools-agent', config: { tools: ['read_file'] } });
    expect(ok.status).toBe(201);
    expect(ok.body.config.tools).toEqual(['read_file']);
  });

  it('accepts the base tools by name in tools, on create and edit, and stores them as sent', async () => {
    const res = await create(user, {
      name: 'Base tools',
      slug: 'base-tools-agent',
      config: { tools: ['ask_user_question', 'read_file', 'mark_for_improvement'] },
    });
    expect(res.status).toBe(201);
    // Always present at run time; the selection is still the client's own.
    expect(res.body.config.tools).toEqual(['ask_user_question', 'read_file', 'mark_for_improvement']);
    expect((await agentRow('base-tools-agent')).config.tools).toEqual([
      'ask_user_question',
      'read_file',
      'mark_for_improvement',
    ]);

    const edited = await ctx.http
      .patch('/api/agents/base-tools-agent')
      .set(auth(user))
      .send({ config: { tools: ['read_file', 'ask_user_question', 'write_file'] } });
    expect(edited.status).toBe(200);
    expect(edited.body.config.tools).toEqual(['read_file', 'ask_user_question', 'write_file']);
  });

  it('refuses knowledge, skill and MCP ids while no module provides them', async () => {
    for (const field of ['knowledges', 'skills', 'mcps', 'preload_skills']) {
      const res = await create(user, { name: 'Refs', config: { [field]: ['x1'] } });
      expect(res.status).toBe(422);
      expect(res.body.details).toEqual({ field, ids: ['x1'] });
    }
  });

  it('keeps normal users to the users share level (403) and the manage scope inside the read scope (422)', async () => {
    const department = await create(user, {
      name: 'Dept',
      slug: 'dept-agent',
      share_config: { version: 2, read_scope: { level: 'department', department_ids: [user.departmentId] } },
    });
    expect(department.status).toBe(403);
    expect(department.body.code).toBe('agents.share_scope_forbidden');
    expect(await agentRow('dept-agent')).toBeUndefined();

    const outside = await create(user, {
      name: 'Outside',
      share_config: {
        version: 2,
        read_scope: { level: 'users', user_ids: [user.id] },
        manage_scope: { level: 'users', user_ids: [admin.id] },
      },
    });
    expect(outside.status).toBe(422);
    expect(outside.body.code).toBe('agents.manage_scope_outside_read_scope');

    const byAdmin = await create(admin, {
      name: 'Dept',
      slug: 'dept-agent',
      share_config: {
        version: 2,
        read_scope: { level: 'department', department_ids: [user.departmentId] },
        manage_scope: { level: 'users', user_ids: [admin.id] },
      },
    });
    expect(byAdmin.status).toBe(201);
    const seen = await ctx.http.get('/api/agents/dept-agent').set(auth(user));
    expect(seen.body.permission).toBe('read');
  });

  it('seeds the builtin agents, lists subagents only on request and never deletes builtins', async () => {
    const list = await ctx.http.get('/api/agents').set(auth(user));
    const slugs = list.body.items.map((a: { slug: string }) => a.slug);
    expect(slugs).toContain('default-chatbot');
    expect(slugs).not.toContain('general-purpose');
    const all = await ctx.http.get('/api/agents?include_subagents=true').set(auth(user));
    const sub = all.body.items.find((a: { slug: string }) => a.slug === 'general-purpose');
    expect(sub).toMatchObject({ is_subagent: true, builtin: true, owner_id: null, permission: 'read' });

    const byUser = await ctx.http.delete('/api/agents/default-chatbot').set(auth(user));
    expect(byUser.status).toBe(403);
    expect(byUser.body.code).toBe('agents.manage_forbidden');
    const byAdmin = await ctx.http.delete('/api/agents/default-chatbot').set(auth(admin));
    expect(byAdmin.status).toBe(409);
    expect(byAdmin.body.code).toBe('agents.builtin_immutable');
    expect(await agentRow('default-chatbot')).toBeDefined();
  });

  it('does not overwrite a builtin agent when seeding runs again', async () => {
    const patch = await ctx.http
      .patch('/api/agents/default-chatbot')
      .set(auth(admin))
      .send({ config: { system_prompt: 'Changed by an admin.' } });
    expect(patch.status).toBe(200);
    await ctx.app.get(BuiltinAgents).onApplicationBootstrap();
    expect((await agentRow('default-chatbot')).config.system_prompt).toBe('Changed by an admin.');
    const [{ count }] = await ctx.dataSource.query(`SELECT count(*)::int AS count FROM agents WHERE builtin`);
    expect(count).toBe(2);
  });

  it('lets the owner delete their agent', async () => {
    await create(user, { name: 'Temp', slug: 'temp-agent' });
    const res = await ctx.http.delete('/api/agents/temp-agent').set(auth(user));
    expect(res.status).toBe(204);
    expect(await agentRow('temp-agent')).toBeUndefined();
  });
});
