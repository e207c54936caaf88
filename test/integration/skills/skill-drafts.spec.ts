import { strToU8, zipSync } from 'fflate';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { uploadTempDir } from '../../../src/modules/workspace';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { SkillDraftsRetention } from '../../../src/modules/skills/drafts/skill-drafts-retention';
import { looseWhitespace, makeLyingZip, type LyingEntry } from '../../support/fixtures/make-lying-zip';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

const MB = 1024 * 1024;

interface Draft {
  id: string;
  expires_at: string;
  items: { slug: string; name: string; version: string; skill_dependencies: string[]; warnings: string[] }[];
  failures: { path: string; error: string }[];
}

const honest = (name: string, text = 'x', extra: Partial<LyingEntry> = {}): LyingEntry => {
  const data = strToU8(text);
  return { name, data, declaredSize: data.length, ...extra };
};
const zip = (files: Record<string, string>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([p, t]) => [p, strToU8(t)]))));

/** A GitHub archive: one wrapping folder, two skills and a third whose SKILL.md does not parse. */
const GITHUB_REPO = zip({
  'tools-main/README.md': '# tools',
  'tools-main/skills/alpha-one/SKILL.md': skillMd('alpha-one'),
  'tools-main/skills/alpha-one/scripts/run.sh': 'echo alpha',
  'tools-main/skills/beta-two/SKILL.md': skillMd('beta-two', ['skill_dependencies: [alpha-one]']),
  'tools-main/skills/broken/SKILL.md': 'no frontmatter here',
});

describe('skill drafts: upload, confirm, discard', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
    alice = await ctx.newUser();
    bob = await ctx.newUser();
  });
  afterAll(() => ctx?.close());

  const draftsDir = () => join(ctx.config.dataDir, 'skill-drafts');
  const draftIds = () => (existsSync(draftsDir()) ? readdirSync(draftsDir()) : []);
  const tempFiles = () =>
    existsSync(uploadTempDir(ctx.config.dataDir)) ? readdirSync(uploadTempDir(ctx.config.dataDir)) : [];
  const row = (slug: string) => ctx.dataSource.getRepository(SkillEntity).findOneBy({ slug });
  const upload = (user: TestUser, bytes: Buffer, name = 'skills.zip') =>
    ctx.http.post('/api/skills/drafts').set(auth(user)).attach('file', bytes, name);
  const personalSlugs = async (user: TestUser) => {
    const res = await ctx.http.get('/api/skills').set(auth(user));
    return (res.body as { items: { slug: string; source: string }[] }).items
      .filter((i) => i.source === 'personal')
      .map((i) => i.slug);
  };

  /** The upload is refused with `status`/`code`, and nothing is left: no draft, no temp file. */
  async function expectRefused(bytes: Buffer, status: number, code: string, name = 'skills.zip') {
    const drafts = draftIds();
    const temps = tempFiles();
    const res = await upload(alice, bytes, name);
    expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({ status, code });
    expect(draftIds()).toEqual(drafts);
    expect(tempFiles()).toEqual(temps);
    return res.body as { details: Record<string, unknown> };
  }

  it('drafts a GitHub-style archive: one item per skill folder, the broken one in failures, stored for an hour', async () => {
    const res = await upload(alice, GITHUB_REPO);
    expect(res.status).toBe(201);
    const draft = res.body as Draft;
    expect(draft.items.map((i) => i.slug)).toEqual(['alpha-one', 'beta-two']);
    expect(draft.items[1]).toMatchObject({
      skill_dependencies: ['alpha-one'],
      warnings: [],
      version: '1.0.0',
    });
    expect(draft.failures).toEqual([
      expect.objectContaining({ path: 'tools-main/skills/broken/SKILL.md', error: expect.any(String) }),
    ]);
    const ttl = new Date(draft.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
    expect(draftIds()).toContain(draft.id);
    expect(await row('alpha-one')).toBeNull(); // a draft installs nothing
  });

  it('drafts a single SKILL.md', async () => {
    const res = await upload(alice, Buffer.from(skillMd('single-file')), 'SKILL.md');
    expect(res.status).toBe(201);
    expect((res.body as Draft).items.map((i) => i.slug)).toEqual(['single-file']);
  });

  it('confirms a draft as personal skills: installed in order, the draft consumed', async () => {
    const draft = (await upload(alice, GITHUB_REPO)).body as Draft;
    const res = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(alice))
      .send({ target: 'personal' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      target: 'personal',
      installed: [
        { draft_slug: 'alpha-one', slug: 'alpha-one', warnings: [] },
        { draft_slug: 'beta-two', slug: 'beta-two', warnings: [] },
      ],
    });
    expect(await personalSlugs(alice)).toEqual(expect.arrayContaining(['alpha-one', 'beta-two']));
    const tree = await ctx.http.get('/api/skills/alpha-one/tree').set(auth(alice));
    expect(JSON.stringify(tree.body)).toContain('run.sh');
    expect(draftIds()).not.toContain(draft.id);
    const again = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(alice))
      .send({ target: 'personal' });
    expect(again.status).toBe(404);
    expect(await row('alpha-one')).toBeNull();
  });

  it("answers 404 for another user's draft (confirm and delete) and leaves it whole", async () => {
    const draft = (await upload(alice, zip({ 's/SKILL.md': skillMd('private-draft') }))).body as Draft;
    for (const call of [
      ctx.http.post(`/api/skills/drafts/${draft.id}/confirm`).send({ target: 'personal' }),
      ctx.http.delete(`/api/skills/drafts/${draft.id}`),
    ]) {
      const res = await call.set(auth(bob));
      expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
        status: 404,
        code: 'skills.draft_not_found',
      });
    }
    expect(draftIds()).toContain(draft.id);
    expect(await personalSlugs(bob)).not.toContain('private-draft');
  });

  it('refuses a shared confirm from a non-admin (403) and keeps the draft; an admin installs it shared', async () => {
    const draft = (await upload(alice, zip({ 's/SKILL.md': skillMd('team-skill') }))).body as Draft;
    const res = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(alice))
      .send({ target: 'shared' });
    expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
      status: 403,
      code: 'skills.shared_install_forbidden',
    });
    expect(await row('team-skill')).toBeNull();
    expect(draftIds()).toContain(draft.id);

    const own = (await upload(admin, zip({ 's/SKILL.md': skillMd('team-skill') }))).body as Draft;
    const ok = await ctx.http
      .post(`/api/skills/drafts/${own.id}/confirm`)
      .set(auth(admin))
      .send({ target: 'shared', share_config: { version: 2 } });
    expect(ok.status).toBe(200);
    expect(await row('team-skill')).toMatchObject({ sourceType: 'shared', ownerId: admin.id });
    expect(existsSync(join(ctx.config.dataDir, 'skills', 'team-skill', 'SKILL.md'))).toBe(true);
  });

  it('warns of a slug clash in the draft and installs a shared clash as <slug>-v2', async () => {
    await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('clashing') });
    const draft = (await upload(admin, zip({ 'x/SKILL.md': skillMd('clashing', [], 'new body\n') })))
      .body as Draft;
    expect(draft.items[0].warnings).toEqual([expect.stringContaining('clashing-v2')]);
    const res = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(admin))
      .send({ target: 'shared' });
    expect(res.status).toBe(200);
    expect((res.body as { installed: unknown[] }).installed).toEqual([
      { draft_slug: 'clashing', slug: 'clashing-v2', warnings: [expect.stringContaining('clashing-v2')] },
    ]);
    expect(await row('clashing-v2')).toMatchObject({ sourceType: 'shared' });
    const file = await ctx.http.get('/api/skills/clashing-v2/files?path=SKILL.md').set(auth(admin));
    expect((file.body as { content: string }).content).toContain('slug: "clashing-v2"');
  });

  it('validates dependencies on a shared confirm (422) and installs nothing, keeping the draft', async () => {
    const draft = (
      await upload(
        admin,
        zip({ 'x/SKILL.md': skillMd('needs-ghost', ['skill_dependencies: [no-such-skill]']) }),
      )
    ).body as Draft;
    const res = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(admin))
      .send({ target: 'shared' });
    expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
      status: 422,
      code: 'skills.unknown_dependency',
    });
    expect(await row('needs-ghost')).toBeNull();
    expect(draftIds()).toContain(draft.id);
  });

  it('installs a shared confirm all or nothing: a later skill failing removes the earlier one', async () => {
    const draft = (
      await upload(
        admin,
        zip({
          'a/SKILL.md': skillMd('first-ok'),
          'b/SKILL.md': skillMd('second-bad', ['tool_dependencies: [no_such_tool]']),
        }),
      )
    ).body as Draft;
    const res = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(admin))
      .send({ target: 'shared' });
    expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
      status: 422,
      code: 'skills.unknown_dependency',
    });
    expect(await row('first-ok')).toBeNull();
    expect(existsSync(join(ctx.config.dataDir, 'skills', 'first-ok'))).toBe(false);
    expect(await row('second-bad')).toBeNull();
    expect(draftIds()).toContain(draft.id);
  });

  it('confirms only the slugs named (an unknown one → 422); a failed folder cannot be confirmed', async () => {
    const draft = (await upload(bob, GITHUB_REPO)).body as Draft;
    const bad = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(bob))
      .send({ target: 'personal', slugs: ['broken'] });
    expect({ status: bad.status, code: (bad.body as { code: string }).code }).toEqual({
      status: 422,
      code: 'skills.unknown_skill_names',
    });
    const ok = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(bob))
      .send({ target: 'personal', slugs: ['alpha-one'] });
    expect((ok.body as { installed: { slug: string }[] }).installed.map((i) => i.slug)).toEqual([
      'alpha-one',
    ]);
    const mine = await personalSlugs(bob);
    expect(mine).toContain('alpha-one');
    expect(mine).not.toContain('beta-two');
  });

  it('discards a draft (creator or admin) and writes nothing else', async () => {
    const first = (await upload(alice, zip({ 's/SKILL.md': skillMd('discard-me') }))).body as Draft;
    const res = await ctx.http.delete(`/api/skills/drafts/${first.id}`).set(auth(alice));
    expect(res.status).toBe(204);
    expect(draftIds()).not.toContain(first.id);
    const second = (await upload(alice, zip({ 's/SKILL.md': skillMd('discard-me') }))).body as Draft;
    expect((await ctx.http.delete(`/api/skills/drafts/${second.id}`).set(auth(admin))).status).toBe(204);
    expect(draftIds()).not.toContain(second.id);
    expect(await personalSlugs(alice)).not.toContain('discard-me');
    expect(await row('discard-me')).toBeNull();
  });

  it('removes expired drafts (the cleaning job): an expired draft is gone and answers 404', async () => {
    const draft = (await upload(alice, zip({ 's/SKILL.md': skillMd('expiring') }))).body as Draft;
    const removed = await ctx.app
      .get(SkillDraftsRetention)
      .purgeExpired(new Date(Date.now() + 61 * 60 * 1000));
    expect(removed.expired).toBeGreaterThanOrEqual(1);
    expect(draftIds()).not.toContain(draft.id);
    const res = await ctx.http
      .post(`/api/skills/drafts/${draft.id}/confirm`)
      .set(auth(alice))
      .send({ target: 'personal' });
    expect(res.status).toBe(404);
  });

  describe('refusals write nothing', () => {
    it('zip slip → 422 skills.unsafe_archive', async () => {
      const body = await expectRefused(
        makeLyingZip([honest('s/SKILL.md', skillMd('slip')), honest('s/../../evil.sh', 'rm -rf /')]),
        422,
        'skills.unsafe_archive',
      );
      expect(body.details).toMatchObject({ reason: 'path_unsafe' });
    });

    it('a symlink entry → 422 skills.unsafe_archive', async () => {
      const link = honest('s/evil', '/etc/passwd', { externalAttributes: (0o120777 << 16) >>> 0 });
      const body = await expectRefused(
        makeLyingZip([honest('s/SKILL.md', skillMd('linked')), link]),
        422,
        'skills.unsafe_archive',
      );
      expect(body.details).toMatchObject({ reason: 'symlink', path: 's/evil' });
    });

    it('a bomb with lying sizes → 413 skills.archive_too_large', async () => {
      const bomb = makeLyingZip([
        honest('s/SKILL.md', skillMd('bomb')),
        { name: 's/zeros.md', data: new Uint8Array(4 * MB), declaredSize: 100 },
      ]);
      await expectRefused(bomb, 413, 'skills.archive_too_large');
    });

    it('a SKILL.md nested in another skill folder → 422 skills.nested_skill_md', async () => {
      const body = await expectRefused(
        zip({ 'outer/SKILL.md': skillMd('outer'), 'outer/inner/SKILL.md': skillMd('inner') }),
        422,
        'skills.nested_skill_md',
      );
      expect(body.details).toMatchObject({ path: 'outer/inner/SKILL.md', folder: 'outer' });
    });

    it('no skill that parses → 422 skills.no_skill_found (with the failures)', async () => {
      const body = await expectRefused(zip({ 'a/SKILL.md': 'nothing' }), 422, 'skills.no_skill_found');
      expect(body.details.failures).toEqual([expect.objectContaining({ path: 'a/SKILL.md' })]);
      await expectRefused(zip({ 'README.md': '# none' }), 422, 'skills.no_skill_found');
    });

    it('over 2000 entries, over 1000 files, over 64 levels → 422 skills.archive_too_complex', async () => {
      const entries: Record<string, string> = { 's/SKILL.md': skillMd('many') };
      for (let i = 0; i < 1001; i++) entries[`s/f${i}.md`] = 'x';
      const files = await expectRefused(zip(entries), 422, 'skills.archive_too_complex');
      expect(files.details).toMatchObject({ reason: 'too_many_files' });
      const dirs = [honest('s/SKILL.md', skillMd('dirs'))];
      for (let i = 0; i < 2001; i++) dirs.push(honest(`s/d${i}/`, ''));
      const entriesBody = await expectRefused(makeLyingZip(dirs), 422, 'skills.archive_too_complex');
      expect(entriesBody.details).toMatchObject({ reason: 'too_many_entries' });
      const deep = `s/${Array.from({ length: 65 }, (_, i) => `d${i}`).join('/')}/f.md`;
      const depth = await expectRefused(
        zip({ 's/SKILL.md': skillMd('deep'), [deep]: 'x' }),
        422,
        'skills.archive_too_complex',
      );
      expect(depth.details).toMatchObject({ reason: 'too_deep' });
    });

    it('an upload over the size limit → 413 common.payload_too_large, no temp file', async () => {
      const small = await TestContext.start({ UPLOAD_LIMIT_BYTES: String(64 * 1024) });
      try {
        const user = await small.newUser();
        const res = await small.http
          .post('/api/skills/drafts')
          .set(auth(user))
          .attach('file', looseWhitespace(128 * 1024), 'big.zip');
        expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
          status: 413,
          code: 'common.payload_too_large',
        });
        expect(existsSync(join(small.config.dataDir, 'skill-drafts'))).toBe(false);
        const temp = uploadTempDir(small.config.dataDir);
        expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
      } finally {
        await small.close();
      }
    });

    it('a request without a file → 400', async () => {
      const res = await ctx.http.post('/api/skills/drafts').set(auth(alice)).field('x', 'y');
      expect(res.status).toBe(400);
    });
  });
});
