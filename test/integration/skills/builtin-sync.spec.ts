import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpApp } from '../../../src/bootstrap/create-http-app';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext } from '../../support/test-app';

function builtinDir(skills: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'builtin-skills-'));
  for (const [folder, content] of Object.entries(skills)) {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, 'SKILL.md'), content);
  }
  return dir;
}

describe('builtin skill sync at start', () => {
  let ctx: TestContext;
  const dir = builtinDir({
    'alpha-skill': skillMd('alpha-skill'),
    'beta-skill': skillMd('Beta', ['slug: beta-skill']),
    _draft: 'not a skill',
    '.hidden': 'not a skill',
  });

  beforeAll(async () => {
    ctx = await TestContext.start({ SKILLS_BUILTIN_DIR: dir });
  });
  afterAll(() => ctx?.close());

  const rows = () => ctx.dataSource.getRepository(SkillEntity).find({ order: { slug: 'ASC' } });

  it('inserts the builtin folders in name order, skipping _ and . folders, files copied to the shared area', async () => {
    expect((await rows()).map((row) => [row.slug, row.sourceType, row.enabled])).toEqual([
      ['alpha-skill', 'builtin', true],
      ['beta-skill', 'builtin', true],
    ]);
    expect(readFileSync(join(ctx.config.dataDir, 'skills', 'beta-skill', 'SKILL.md'), 'utf8')).toContain(
      'slug: beta-skill',
    );
  });

  it('keeps enabled from the database and takes changed files at the next start', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    await ctx.http.put('/api/skills/alpha-skill/enabled').set(auth(admin)).send({ enabled: false });
    const before = (await rows()).find((row) => row.slug === 'alpha-skill')!.revision;
    await ctx.restart();
    expect((await rows()).find((row) => row.slug === 'alpha-skill')?.revision).toBe(before);
    writeFileSync(join(dir, 'alpha-skill', 'SKILL.md'), skillMd('alpha-skill', ['version: "2.0.0"']));
    await ctx.restart();
    const alpha = (await rows()).find((row) => row.slug === 'alpha-skill');
    expect(alpha).toMatchObject({ enabled: false, version: '2.0.0', revision: before + 1 });
    expect(readFileSync(join(ctx.config.dataDir, 'skills', 'alpha-skill', 'SKILL.md'), 'utf8')).toContain(
      '2.0.0',
    );
  });

  it('fails the start naming an invalid builtin', async () => {
    const bad = builtinDir({ 'good-one': skillMd('good-one'), 'broken-one': '---\nname: broken-one\n---\n' });
    const config = { ...ctx.config, skills: { ...ctx.config.skills, builtinDir: bad } };
    const app = await createHttpApp(config);
    await expect(app.init()).rejects.toThrow(/builtin skill "broken-one" is invalid: .*description/);
    await app.close().catch(() => undefined);
    const mismatch = builtinDir({ 'folder-name': skillMd('other-name', ['slug: other-name']) });
    const second = await createHttpApp({
      ...ctx.config,
      skills: { ...ctx.config.skills, builtinDir: mismatch },
    });
    await expect(second.init()).rejects.toThrow(/builtin skill "folder-name" is invalid: .*slug/);
    await second.close().catch(() => undefined);
  });

  it('two starts at once leave one row per builtin', async () => {
    const apps = await Promise.all([createHttpApp(ctx.config), createHttpApp(ctx.config)]);
    await Promise.all(apps.map((app) => app.init()));
    await Promise.all(apps.map((app) => app.close()));
    expect((await rows()).map((row) => row.slug)).toEqual(['alpha-skill', 'beta-skill']);
  });
});
