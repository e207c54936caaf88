import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../../../src/common/errors/domain-error';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

describe('SkillsStore (the install entry of drafts, remote sources and install_skill)', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
  });
  afterAll(() => ctx?.close());

  it('installs a clashing shared slug as -v2, then -v3, naming the new slug in the root file only', async () => {
    const original = skillMd('clash', ['license: MIT']);
    expect(await ctx.newSharedSkill(admin, { 'SKILL.md': original })).toBe('clash');
    expect(await ctx.newSharedSkill(admin, { 'SKILL.md': original })).toBe('clash-v2');
    expect(await ctx.newSharedSkill(admin, { 'SKILL.md': original })).toBe('clash-v3');
    const written = readFileSync(join(ctx.config.dataDir, 'skills', 'clash-v2', 'SKILL.md'), 'utf8');
    expect(written).toBe(original.replace('license: MIT\n', 'license: MIT\nslug: "clash-v2"\n'));
    const rows = await ctx.dataSource.getRepository(SkillEntity).findBy({ name: 'clash' });
    expect(rows.map((row) => [row.slug, row.ownerId, row.shareConfig.read_scope]).sort()).toEqual([
      ['clash', admin.id, { level: 'users', user_ids: [admin.id] }],
      ['clash-v2', admin.id, { level: 'users', user_ids: [admin.id] }],
      ['clash-v3', admin.id, { level: 'users', user_ids: [admin.id] }],
    ]);
  });

  it('refuses a shared install by a normal user and writes nothing', async () => {
    const user = await ctx.newUser();
    const error = await ctx
      .newSharedSkill(user, { 'SKILL.md': skillMd('users-try') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('skills.shared_install_forbidden');
    expect(await ctx.dataSource.getRepository(SkillEntity).findOneBy({ slug: 'users-try' })).toBeNull();
  });

  it('installs personal skills in the user workspace, replacing an older one with the slug', async () => {
    const user = await ctx.newUser();
    await ctx.newPersonalSkill(user, { 'SKILL.md': skillMd('mine'), 'old.md': 'old' });
    await ctx.newPersonalSkill(user, { 'SKILL.md': skillMd('mine'), 'new.md': 'new' });
    const dir = join(ctx.config.dataDir, 'users', user.id, 'user-data', 'agents', 'skills', 'mine');
    expect(readFileSync(join(dir, 'new.md'), 'utf8')).toBe('new');
    expect(() => readFileSync(join(dir, 'old.md'))).toThrow();
    expect(await ctx.dataSource.getRepository(SkillEntity).findOneBy({ slug: 'mine' })).toBeNull();
  });
});
