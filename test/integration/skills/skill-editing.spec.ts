import { unzipSync } from 'fflate';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

describe('skills: editing files', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
  });
  afterAll(() => ctx?.close());

  const row = (slug: string) => ctx.dataSource.getRepository(SkillEntity).findOneByOrFail({ slug });
  const dir = (slug: string) => join(ctx.config.dataDir, 'skills', slug);
  const readFile = (slug: string, path: string) =>
    ctx.http.get(`/api/skills/${slug}/files?path=${encodeURIComponent(path)}`).set(auth(admin));

  it('refuses a stale revision with 409 and writes nothing', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('stale-one'), 'notes.md': 'v1' });
    const first = (await readFile(slug, 'notes.md')).body as { revision: string };
    const put = (content: string, revision: string) =>
      ctx.http
        .put(`/api/skills/${slug}/files`)
        .set(auth(admin))
        .send({ path: 'notes.md', content, revision });
    const saved = await put('v2', first.revision);
    expect(saved.status).toBe(200);
    const revisionBefore = (await row(slug)).revision;
    const stale = await put('v3 from an old tab', first.revision);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'skills.revision_conflict', details: { path: 'notes.md' } });
    expect(readFileSync(join(dir(slug), 'notes.md'), 'utf8')).toBe('v2');
    expect((await row(slug)).revision).toBe(revisionBefore);
    expect(readdirSync(dir(slug)).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('re-parses a saved root SKILL.md: name, description and version sync, the slug stays', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('resync-one') });
    const root = (await readFile(slug, 'SKILL.md')).body as { content: string; revision: string };
    const next = root.content.replace('name: resync-one', 'name: Renamed skill\nversion: "2.0.0"');
    const saved = await ctx.http
      .put(`/api/skills/${slug}/files`)
      .set(auth(admin))
      .send({ path: 'SKILL.md', content: next, revision: root.revision });
    expect(saved.status).toBe(200);
    expect(await row(slug)).toMatchObject({ slug, name: 'Renamed skill', version: '2.0.0', revision: 2 });

    const again = (await readFile(slug, 'SKILL.md')).body as { content: string; revision: string };
    for (const [content, field] of [
      [again.content.replace('---\n', '---\nslug: another-slug\n'), 'slug'],
      [again.content.replace(/description: .*\n/, ''), 'description'],
    ]) {
      const refused = await ctx.http
        .put(`/api/skills/${slug}/files`)
        .set(auth(admin))
        .send({ path: 'SKILL.md', content, revision: again.revision });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'skills.invalid_skill_md', details: { field } });
    }
    expect(readFileSync(join(dir(slug), 'SKILL.md'), 'utf8')).toBe(again.content);
  });

  it('writes a public-format skill back with its extra fields untouched after edits', async () => {
    const original = [
      '---',
      'name: pdf-tools',
      'description: Work with PDF files.',
      'license: Complete terms in LICENSE.txt',
      'compatibility: Requires python3 and poppler',
      'metadata:',
      '  author: example-org',
      "  version: '1.0'",
      'allowed-tools: Bash(python:*) Read',
      '---',
      '# PDF tools',
      '',
    ].join('\n');
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': original, 'LICENSE.txt': 'terms' });
    const detail = await ctx.http.get(`/api/skills/${slug}`).set(auth(admin));
    expect(detail.body).toMatchObject({
      license: 'Complete terms in LICENSE.txt',
      compatibility: 'Requires python3 and poppler',
      metadata: { author: 'example-org', version: '1.0' },
      allowed_tools: 'Bash(python:*) Read',
    });
    const deps = await ctx.http
      .put(`/api/skills/${slug}/dependencies`)
      .set(auth(admin))
      .send({ tool_dependencies: ['read_file'], mcp_dependencies: [], skill_dependencies: ['html-preview'] });
    expect(deps.status).toBe(200);
    expect(deps.body).toMatchObject({
      tool_dependencies: ['read_file'],
      skill_dependencies: ['html-preview'],
    });
    const written = readFileSync(join(dir(slug), 'SKILL.md'), 'utf8');
    expect(written).toBe(
      original.replace(
        'allowed-tools: Bash(python:*) Read\n',
        'allowed-tools: Bash(python:*) Read\ntool_dependencies: ["read_file"]\nmcp_dependencies: []\nskill_dependencies: ["html-preview"]\n',
      ),
    );
    expect(await row(slug)).toMatchObject({
      toolDependencies: ['read_file'],
      skillDependencies: ['html-preview'],
    });
  });

  it('refuses to delete the root SKILL.md (422) and deletes other files', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('delete-one'), 'ref/a.md': 'A' });
    const root = await ctx.http.delete(`/api/skills/${slug}/files?path=SKILL.md`).set(auth(admin));
    expect(root.status).toBe(422);
    expect(root.body).toMatchObject({ code: 'skills.root_file_required' });
    expect(existsSync(join(dir(slug), 'SKILL.md'))).toBe(true);
    expect((await ctx.http.delete(`/api/skills/${slug}/files?path=ref/a.md`).set(auth(admin))).status).toBe(
      204,
    );
    expect(existsSync(join(dir(slug), 'ref'))).toBe(false);
    const tree = await ctx.http.get(`/api/skills/${slug}/tree`).set(auth(admin));
    expect((tree.body as { files: { path: string }[] }).files.map((f) => f.path)).toEqual(['SKILL.md']);
  });

  it('refuses unsafe paths (400) and symlinks (422), writing nothing', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('paths-one') });
    symlinkSync('/etc', join(dir(slug), 'link'));
    const before = readdirSync(dir(slug)).sort();
    for (const path of [
      '../escape.md',
      'a/../../escape.md',
      '/etc/passwd',
      'a\\b.md',
      'a\u0000b',
      'a//b',
      '.',
    ]) {
      const res = await ctx.http
        .post(`/api/skills/${slug}/files`)
        .set(auth(admin))
        .send({ path, content: 'x' });
      expect({ path, status: res.status, code: (res.body as { code?: string }).code }).toEqual({
        path,
        status: 400,
        code: path.includes('\u0000') ? 'common.validation_failed' : 'skills.invalid_path',
      });
    }
    const viaLink = await ctx.http
      .post(`/api/skills/${slug}/files`)
      .set(auth(admin))
      .send({ path: 'link/x.md', content: 'x' });
    expect(viaLink.status).toBe(422);
    expect(viaLink.body).toMatchObject({ code: 'skills.symlink_refused' });
    const readLink = await readFile(slug, 'link/passwd');
    expect(readLink.status).toBe(422);
    expect(readdirSync(dir(slug)).sort()).toEqual(before);
    expect(existsSync(join(ctx.config.dataDir, 'skills', 'escape.md'))).toBe(false);
  });

  it('serves text only: a binary file is refused for reading (422)', async () => {
    const slug = await ctx.newSharedSkill(admin, {
      'SKILL.md': skillMd('binary-one'),
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
    });
    const res = await readFile(slug, 'logo.png');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'skills.not_text' });
  });

  it('exports a zip holding every file byte for byte', async () => {
    const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const files = { 'SKILL.md': skillMd('export-one'), 'ref/guide.md': '# Guide\n', 'assets/logo.png': logo };
    const slug = await ctx.newSharedSkill(admin, files);
    const res = await ctx.http
      .get(`/api/skills/${slug}/export`)
      .set(auth(admin))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/zip');
    const entries = unzipSync(new Uint8Array(res.body as Buffer));
    expect(Object.keys(entries).sort()).toEqual([
      `${slug}/SKILL.md`,
      `${slug}/assets/logo.png`,
      `${slug}/ref/guide.md`,
    ]);
    expect(Buffer.from(entries[`${slug}/assets/logo.png`]).equals(logo)).toBe(true);
    expect(Buffer.from(entries[`${slug}/SKILL.md`]).toString()).toBe(files['SKILL.md']);
  });

  it('edits personal skills in the owner workspace with the same revision rule', async () => {
    const user = await ctx.newUser();
    const slug = await ctx.newPersonalSkill(user, { 'SKILL.md': skillMd('personal-edit'), 'a.md': 'one' });
    const personalDir = join(ctx.config.dataDir, 'users', user.id, 'user-data', 'agents', 'skills', slug);
    const read = await ctx.http.get(`/api/skills/${slug}/files?path=a.md`).set(auth(user));
    const put = (content: string) =>
      ctx.http
        .put(`/api/skills/${slug}/files`)
        .set(auth(user))
        .send({ path: 'a.md', content, revision: (read.body as { revision: string }).revision });
    expect((await put('two')).status).toBe(200);
    expect((await put('three')).status).toBe(409);
    expect(readFileSync(join(personalDir, 'a.md'), 'utf8')).toBe('two');
    const other = await ctx.newUser();
    expect((await ctx.http.get(`/api/skills/${slug}/files?path=a.md`).set(auth(other))).status).toBe(404);
    expect(await ctx.dataSource.getRepository(SkillEntity).findOneBy({ slug })).toBeNull();
  });
});
