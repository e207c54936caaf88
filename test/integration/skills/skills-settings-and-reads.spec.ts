import { DomainError } from '../../../src/common/errors/domain-error';
import { SkillsSettings } from '../../../src/modules/skills/settings/skills-settings';
import { SkillsSettingsEntity } from '../../../src/modules/skills/settings/skills-settings.entity';
import { WorkspacePathResolver } from '../../../src/modules/workspace/index';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

describe('skills settings', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
  });
  afterAll(() => ctx?.close());

  it('defaults to github.com and modelscope.cn, saves a validated list and serves it to SkillsSettings', async () => {
    const initial = await ctx.http.get('/api/system/settings/skills').set(auth(admin));
    expect(initial.body).toEqual({ remote_source_allowed_hosts: ['github.com', 'modelscope.cn'] });
    for (const hosts of [
      ['GitHub.com'],
      ['https://github.com'],
      ['github.com:443'],
      ['*.github.com'],
      ['a', 'a'],
    ]) {
      const res = await ctx.http
        .put('/api/system/settings/skills')
        .set(auth(admin))
        .send({ remote_source_allowed_hosts: hosts });
      expect({ hosts, status: res.status }).toEqual({ hosts, status: 400 });
    }
    expect(await ctx.dataSource.getRepository(SkillsSettingsEntity).count()).toBe(0);
    const saved = await ctx.http
      .put('/api/system/settings/skills')
      .set(auth(admin))
      .send({ remote_source_allowed_hosts: ['git.example.com'] });
    expect(saved.body).toEqual({ remote_source_allowed_hosts: ['git.example.com'] });
    expect(await ctx.app.get(SkillsSettings).allowedHosts()).toEqual(['git.example.com']);
    await ctx.http
      .put('/api/system/settings/skills')
      .set(auth(admin))
      .send({ remote_source_allowed_hosts: [] });
    expect(await ctx.app.get(SkillsSettings).allowedHosts()).toEqual([]);
  });

  it('refuses normal users (403) on both routes and keeps the setting', async () => {
    const user = await ctx.newUser();
    expect((await ctx.http.get('/api/system/settings/skills').set(auth(user))).status).toBe(403);
    const put = await ctx.http
      .put('/api/system/settings/skills')
      .set(auth(user))
      .send({ remote_source_allowed_hosts: ['evil.example.com'] });
    expect(put.status).toBe(403);
    expect(await ctx.app.get(SkillsSettings).allowedHosts()).not.toContain('evil.example.com');
  });
});

describe('agents reading /home/gem/skills/<slug>/ through the workspace', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx?.close());

  const refusal = async (run: () => Promise<unknown>) => {
    try {
      await run();
      return null;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return error.details?.reason;
    }
  };

  it('follows the skill read rule: readers yes, others and disabled skills no, never writable', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    const reader = await ctx.newUser();
    const stranger = await ctx.newUser();
    const slug = await ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('read-rule') },
      {
        version: 2,
        read_scope: { level: 'users', user_ids: [reader.id] },
      },
    );
    const resolver = ctx.app.get(WorkspacePathResolver);
    const path = `/home/gem/skills/${slug}/SKILL.md`;
    const read = (user: TestUser) => () => resolver.resolve(user, path, { access: 'read' });
    expect(await refusal(read(reader))).toBeNull();
    expect(await refusal(read(stranger))).toBe('not_shared');
    expect(await refusal(() => resolver.resolve(reader, path, { access: 'write' }))).toBe('read_only');
    expect(
      await refusal(() =>
        resolver.resolve(stranger, '/home/gem/skills/html-preview/SKILL.md', { access: 'read' }),
      ),
    ).toBeNull();
    await ctx.http.put(`/api/skills/${slug}/enabled`).set(auth(admin)).send({ enabled: false });
    expect(await refusal(read(reader))).toBe('not_shared');
  });
});
