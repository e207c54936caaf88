import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

describe('skills: dependencies', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
  });
  afterAll(() => ctx?.close());

  const global = { version: 2 as const, read_scope: { level: 'global' as const } };
  const setDeps = (slug: string, deps: Partial<Record<string, string[]>>) =>
    ctx.http
      .put(`/api/skills/${slug}/dependencies`)
      .set(auth(admin))
      .send({ tool_dependencies: [], mcp_dependencies: [], skill_dependencies: [], ...deps });
  const rootFile = (slug: string) =>
    readFileSync(join(ctx.config.dataDir, 'skills', slug, 'SKILL.md'), 'utf8');
  const row = (slug: string) => ctx.dataSource.getRepository(SkillEntity).findOneByOrFail({ slug });

  it('refuses a cycle with 422 naming it, and a self reference, writing nothing', async () => {
    const a = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('cycle-a') }, global);
    const b = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('cycle-b') }, global);
    const c = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('cycle-c') }, global);
    expect((await setDeps(a, { skill_dependencies: [b] })).status).toBe(200);
    expect((await setDeps(b, { skill_dependencies: [c] })).status).toBe(200);
    const before = rootFile(c);
    const cycle = await setDeps(c, { skill_dependencies: [a] });
    expect(cycle.status).toBe(422);
    expect(cycle.body).toMatchObject({ code: 'skills.dependency_cycle', details: { cycle: [c, a, b, c] } });
    expect(rootFile(c)).toBe(before);
    expect((await row(c)).skillDependencies).toEqual([]);
    const self = await setDeps(a, { skill_dependencies: [a] });
    expect(self.body).toMatchObject({ code: 'skills.dependency_cycle', details: { cycle: [a, a] } });
    // The same rule holds for a dependency written straight into the root file.
    const file = await ctx.http.get(`/api/skills/${c}/files?path=SKILL.md`).set(auth(admin));
    const { content, revision } = file.body as { content: string; revision: string };
    const viaFile = await ctx.http
      .put(`/api/skills/${c}/files`)
      .set(auth(admin))
      .send({
        path: 'SKILL.md',
        content: content.replace('---\n#', `skill_dependencies: [${a}]\n---\n#`),
        revision,
      });
    expect(viaFile.status).toBe(422);
    expect(viaFile.body).toMatchObject({ code: 'skills.dependency_cycle' });
  });

  it('accepts registered local tools and refuses unknown and knowledge tool names', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('tools-one') }, global);
    expect((await setDeps(slug, { tool_dependencies: ['read_file', 'web_search'] })).status).toBe(200);
    expect((await row(slug)).toolDependencies).toEqual(['read_file', 'web_search']);
    for (const name of ['query_kb', 'list_kbs', 'find_kb_document', 'open_kb_document', 'search_file']) {
      const res = await setDeps(slug, { tool_dependencies: [name] });
      expect(res.body).toMatchObject({
        code: 'skills.unknown_dependency',
        details: { field: 'tool_dependencies', ids: [name] },
      });
    }
    const unknown = await setDeps(slug, { tool_dependencies: ['no_such_tool'] });
    expect(unknown.status).toBe(422);
    expect((await row(slug)).toolDependencies).toEqual(['read_file', 'web_search']);
  });

  it('accepts an MCP dependency on a configured server (enabled or not) and refuses an unknown one', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('mcp-one') }, global);
    // The builtin deepwiki-official is synced at start, disabled: it exists.
    const known = await setDeps(slug, { mcp_dependencies: ['deepwiki-official'] });
    expect(known.status).toBe(200);
    expect((await row(slug)).mcpDependencies).toEqual(['deepwiki-official']);
    for (const missing of ['no-such-server', 'knowledge-base']) {
      const res = await setDeps(slug, { mcp_dependencies: [missing] });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ details: { field: 'mcp_dependencies', ids: [missing] } });
    }
    expect((await row(slug)).mcpDependencies).toEqual(['deepwiki-official']);
    // The builtin knowledge server (served by this application) is how skills ask for the knowledge tools.
    const knowledge = await setDeps(slug, { mcp_dependencies: ['knowledge'] });
    expect(knowledge.status).toBe(200);
    expect((await row(slug)).mcpDependencies).toEqual(['knowledge']);
  });

  it('needs skill dependencies that exist and that every reader of the dependent skill can read', async () => {
    const reader = await ctx.newUser();
    const parent = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('wide-parent') }, global);
    const narrow = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('narrow-child') },
      {
        version: 2,
        read_scope: { level: 'users', user_ids: [reader.id] },
      },
    );
    const missing = await setDeps(parent, { skill_dependencies: ['no-such-skill'] });
    expect(missing.body).toMatchObject({
      code: 'skills.unknown_dependency',
      details: { ids: ['no-such-skill'] },
    });
    const tooNarrow = await setDeps(parent, { skill_dependencies: [narrow] });
    expect(tooNarrow.body).toMatchObject({ code: 'skills.unknown_dependency', details: { ids: [narrow] } });
    expect((await setDeps(parent, { skill_dependencies: ['deep-research'] })).status).toBe(200);

    // Narrowing a dependency's scope under a skill that depends on it is refused too.
    const child = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('shared-child') }, global);
    expect((await setDeps(parent, { skill_dependencies: [child] })).status).toBe(200);
    const narrowed = await ctx.http
      .put(`/api/skills/${child}/share-config`)
      .set(auth(admin))
      .send({ version: 2, read_scope: { level: 'users', user_ids: [admin.id] } });
    expect(narrowed.status).toBe(422);
    expect((await row(child)).shareConfig.read_scope).toEqual({ level: 'global' });
    const deleted = await ctx.http.delete(`/api/skills/${child}`).set(auth(admin));
    expect(deleted.body).toMatchObject({ code: 'skills.has_dependents', details: { dependents: [parent] } });
  });

  it('requires all three lists (400)', async () => {
    const res = await ctx.http
      .put('/api/skills/deep-research/dependencies')
      .set(auth(admin))
      .send({ tool_dependencies: [] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'common.validation_failed' });
  });
});
