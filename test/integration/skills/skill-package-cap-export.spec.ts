import { unzipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsPromises, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageHash } from '../../../src/modules/skills/package/skill-package';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { WorkspacePathResolver } from '../../../src/modules/workspace/index';
import { auth } from '../../support/runs/run-helpers';
import { skillMd } from '../../support/skills';
import { TestContext, type TestUser } from '../../support/test-app';

const MB = 1024 * 1024;
const PACKAGE_CAP = 100 * MB;

describe('skills: the package cap on writes, the stored content hash, the streamed export', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
    alice = await ctx.newUser();
  });
  afterAll(() => ctx?.close());
  afterEach(() => jest.restoreAllMocks());

  const row = (slug: string) => ctx.dataSource.getRepository(SkillEntity).findOneByOrFail({ slug });
  const sharedDir = (slug: string) => join(ctx.config.dataDir, 'skills', slug);
  const personalDir = (user: TestUser, slug: string) =>
    join(ctx.app.get(WorkspacePathResolver).userDataRoot(user), 'agents', 'skills', slug);
  const outcome = (res: { status: number; body: unknown }) => ({
    status: res.status,
    code: (res.body as { code?: string }).code,
  });
  const revisionOf = async (user: TestUser, slug: string, path: string) =>
    (
      (await ctx.http.get(`/api/skills/${slug}/files?path=${path}`).set(auth(user))).body as {
        revision: string;
      }
    ).revision;

  /** Every file of a skill folder with its bytes, as the hash sees them. */
  const filesOf = (dir: string, paths: string[]) =>
    paths.map((path) => ({ path, content: readFileSync(join(dir, path)) }));

  describe('the 100 MB package cap', () => {
    it.each(['shared', 'personal'] as const)(
      'refuses a %s skill create or save that would cross it (413) and writes nothing',
      async (kind) => {
        const user = kind === 'shared' ? admin : alice;
        const files = { 'SKILL.md': skillMd(`capped-${kind}`), 'notes.md': 'short' };
        const slug =
          kind === 'shared'
            ? await ctx.newSharedSkill(admin, files)
            : await ctx.newPersonalSkill(alice, files);
        const dir = kind === 'shared' ? sharedDir(slug) : personalDir(alice, slug);
        // A sparse file: the skill 100 bytes under the cap by size, nothing on the disk.
        const used = Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
        writeFileSync(join(dir, 'big.bin'), '');
        truncateSync(join(dir, 'big.bin'), PACKAGE_CAP - used - 100);
        const before = kind === 'shared' ? await row(slug) : null;

        const create = await ctx.http
          .post(`/api/skills/${slug}/files`)
          .set(auth(user))
          .send({ path: 'more.md', content: 'x'.repeat(200) });
        expect(outcome(create)).toEqual({ status: 413, code: 'skills.package_too_large' });
        expect(create.body).toMatchObject({ details: { limit_bytes: PACKAGE_CAP } });
        expect(existsSync(join(dir, 'more.md'))).toBe(false);

        const save = await ctx.http
          .put(`/api/skills/${slug}/files`)
          .set(auth(user))
          .send({
            path: 'notes.md',
            content: 'y'.repeat(200),
            revision: await revisionOf(user, slug, 'notes.md'),
          });
        expect(outcome(save)).toEqual({ status: 413, code: 'skills.package_too_large' });
        expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('short');

        // Within the cap a save still goes through (a shorter file).
        const fits = await ctx.http
          .put(`/api/skills/${slug}/files`)
          .set(auth(user))
          .send({ path: 'notes.md', content: 'tiny', revision: await revisionOf(user, slug, 'notes.md') });
        expect(fits.status).toBe(200);
        expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('tiny');
        if (before !== null) expect((await row(slug)).revision).toBe(before.revision + 1);
      },
    );
  });

  describe('the content hash', () => {
    it("is kept on a shared skill's writes and served from the row on reads", async () => {
      const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('hashed-one'), 'notes.md': 'v1' });
      const detail = async () =>
        (await ctx.http.get(`/api/skills/${slug}`).set(auth(admin))).body as { revision: string };
      const tree = async () =>
        (await ctx.http.get(`/api/skills/${slug}/tree`).set(auth(admin))).body as { revision: string };
      const first = (await detail()).revision;

      const saved = await ctx.http
        .put(`/api/skills/${slug}/files`)
        .set(auth(admin))
        .send({ path: 'notes.md', content: 'v2', revision: await revisionOf(admin, slug, 'notes.md') });
      expect(saved.status).toBe(200);
      const created = await ctx.http
        .post(`/api/skills/${slug}/files`)
        .set(auth(admin))
        .send({ path: 'ref/extra.md', content: 'more' });
      expect(created.status).toBe(201);
      const stored = await row(slug);
      expect(stored.contentHash).toBe(
        packageHash(filesOf(sharedDir(slug), ['SKILL.md', 'notes.md', 'ref/extra.md'])),
      );
      const second = (await detail()).revision;
      expect(second).not.toBe(first);
      expect((await tree()).revision).toBe(second);

      // Reads serve the stored value: they do not hash the files again.
      const marker = 'feedc0de'.repeat(8);
      await ctx.dataSource.query(`UPDATE skills SET content_hash = $2 WHERE slug = $1`, [slug, marker]);
      expect((await detail()).revision).toBe(`${stored.revision}.${marker.slice(0, 16)}`);
      expect((await tree()).revision).toBe(`${stored.revision}.${marker.slice(0, 16)}`);
    });

    it("changes on a personal skill's edit without reading its files on detail and tree", async () => {
      const slug = await ctx.newPersonalSkill(alice, {
        'SKILL.md': skillMd('hashed-mine'),
        'notes.md': 'v1',
        'data/blob.bin': randomBytes(4096),
      });
      const readFile = jest.spyOn(fsPromises, 'readFile');
      const open = jest.spyOn(fsPromises, 'open');
      const detail = await ctx.http.get(`/api/skills/${slug}`).set(auth(alice));
      const tree = await ctx.http.get(`/api/skills/${slug}/tree`).set(auth(alice));
      expect([detail.status, tree.status]).toEqual([200, 200]);
      const read = [...readFile.mock.calls, ...open.mock.calls].map(([path]) =>
        typeof path === 'string' ? path : '',
      );
      expect(read.filter((path) => path.endsWith('notes.md') || path.endsWith('blob.bin'))).toEqual([]);
      const first = (detail.body as { revision: string }).revision;
      expect((tree.body as { revision: string }).revision).toBe(first);
      jest.restoreAllMocks();

      const saved = await ctx.http
        .put(`/api/skills/${slug}/files`)
        .set(auth(alice))
        .send({ path: 'notes.md', content: 'v2', revision: await revisionOf(alice, slug, 'notes.md') });
      expect(saved.status).toBe(200);
      const after = (await ctx.http.get(`/api/skills/${slug}`).set(auth(alice))).body as { revision: string };
      expect(after.revision).not.toBe(first);
      const again = (await ctx.http.get(`/api/skills/${slug}/tree`).set(auth(alice))).body as {
        revision: string;
      };
      expect(again.revision).toBe(after.revision);
    });
  });

  describe('the export', () => {
    const download = (user: TestUser, slug: string) =>
      ctx.http
        .get(`/api/skills/${slug}/export`)
        .set(auth(user))
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        });

    it('streams a valid zip whose entries match the files byte for byte', async () => {
      const blob = randomBytes(3 * MB);
      const files: Record<string, string | Buffer> = {
        'SKILL.md': skillMd('streamed-one'),
        'ref/deep/guide.md': '# Guide\n'.repeat(1000),
        'assets/blob.bin': blob,
        'empty.txt': '',
      };
      const slug = await ctx.newSharedSkill(admin, files);
      const res = await download(admin, slug);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('application/zip');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${slug}.zip"`);
      // Written as it is made: no length known up front.
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const entries = unzipSync(new Uint8Array(res.body as Buffer));
      expect(Object.keys(entries).sort()).toEqual(
        Object.keys(files)
          .map((path) => `${slug}/${path}`)
          .sort(),
      );
      for (const [path, content] of Object.entries(files)) {
        expect(Buffer.from(entries[`${slug}/${path}`]).equals(Buffer.from(content))).toBe(true);
      }
    });

    it("refuses a reader's export (403) and another user's personal skill (404)", async () => {
      const slug = await ctx.newSharedSkill(
        admin,
        { 'SKILL.md': skillMd('export-read-only') },
        { version: 2, read_scope: { level: 'users', user_ids: [alice.id, admin.id] } },
      );
      const refusal = (res: { status: number; body: unknown }) => ({
        status: res.status,
        code: (JSON.parse((res.body as Buffer).toString('utf8')) as { code: string }).code,
      });
      expect(refusal(await download(alice, slug))).toEqual({ status: 403, code: 'skills.manage_forbidden' });
      const mine = await ctx.newPersonalSkill(alice, { 'SKILL.md': skillMd('export-private') });
      const bob = await ctx.newUser();
      expect(refusal(await download(bob, mine))).toEqual({ status: 404, code: 'skills.not_found' });
    });
  });
});
