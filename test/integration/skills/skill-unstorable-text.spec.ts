import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillEntity } from '../../../src/modules/skills/storage/skill.entity';
import { WorkspacePathResolver } from '../../../src/modules/workspace/index';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { skillMd } from '../../support/skills';
import { systemPrompt } from '../../support/skills-runtime';
import type { TestContext, TestUser } from '../../support/test-app';

/**
 * YAML escapes can put text PostgreSQL cannot store (NUL) or that is not Unicode at all (a lone
 * surrogate) into a SKILL.md's fields: such a SKILL.md is an invalid one (422), wherever it comes in.
 */
const UNSTORABLE: [label: string, frontmatter: string[]][] = [
  ['NUL in a value', ['description: "a\\0b"']],
  ['a lone surrogate in a value', ['description: "\\ud800"']],
  ['NUL in a key', ['"we\\0ird": yes']],
  ['a lone surrogate nested in metadata', ['metadata:', '  author: "\\udfff"']],
];

/** A SKILL.md with the frontmatter lines (the first may replace `description`). */
function badSkillMd(slug: string, lines: string[]): string {
  const replacesDescription = lines[0].startsWith('description:');
  return [
    '---',
    `name: ${slug}`,
    ...(replacesDescription ? [] : [`description: The ${slug} skill.`]),
    ...lines,
    '---',
    '# body',
    '',
  ].join('\n');
}

describe('skills: unstorable text in SKILL.md fields', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    admin = await ctx.newUser({ role: 'admin' });
    alice = await ctx.newUser();
  });
  afterAll(() => close());

  const row = (slug: string) => ctx.dataSource.getRepository(SkillEntity).findOneBy({ slug });
  const outcome = (res: { status: number; body: unknown }) => ({
    status: res.status,
    code: (res.body as { code?: string }).code,
  });
  const draftsRoot = () => join(ctx.config.dataDir, 'skill-drafts');
  const draftEntries = () => (existsSync(draftsRoot()) ? readdirSync(draftsRoot(), { recursive: true }) : []);
  const personalDir = (user: TestUser, slug: string) =>
    join(ctx.app.get(WorkspacePathResolver).userDataRoot(user), 'agents', 'skills', slug);

  /** Replaces a stored draft's source bytes, as a draft saved by an older version would hold them. */
  function replaceDraftSource(id: string, bytes: Buffer): void {
    const walk = (dir: string): string | undefined => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          const found = entry.name === id ? findSource(path) : walk(path);
          if (found !== undefined) return found;
        }
      }
      return undefined;
    };
    const findSource = (dir: string) =>
      readdirSync(dir)
        .filter((name) => !name.endsWith('.json'))
        .map((name) => join(dir, name))[0];
    const source = walk(draftsRoot());
    if (source === undefined) throw new Error(`no stored draft ${id}`);
    writeFileSync(source, bytes);
  }

  describe.each(UNSTORABLE)('%s', (label, lines) => {
    const tag = label.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '');

    it('refuses the draft upload of that SKILL.md (422) and stores no draft', async () => {
      const before = draftEntries();
      const res = await ctx.http
        .post('/api/skills/drafts')
        .set(auth(alice))
        .attach('file', Buffer.from(badSkillMd(`up-${tag}`, lines)), 'SKILL.md');
      expect(outcome(res)).toEqual({ status: 422, code: 'skills.no_skill_found' });
      expect(res.body).toMatchObject({
        details: { failures: [expect.objectContaining({ code: 'skills.invalid_skill_md' })] },
      });
      expect(draftEntries()).toEqual(before);
    });

    it.each(['shared', 'personal'] as const)(
      'refuses a %s confirm of a stored draft holding it (422): no row, no files',
      async (target) => {
        const slug = `cf-${target}-${tag}`;
        // One admin each: a refused confirm keeps its draft, which counts against the owner's cap.
        const owner = await ctx.newUser({ role: 'admin' });
        const draft = await ctx.http
          .post('/api/skills/drafts')
          .set(auth(owner))
          .attach('file', Buffer.from(skillMd(slug)), 'SKILL.md');
        expect(draft.status).toBe(201);
        const id = (draft.body as { id: string }).id;
        replaceDraftSource(id, Buffer.from(badSkillMd(slug, lines)));
        const res = await ctx.http.post(`/api/skills/drafts/${id}/confirm`).set(auth(owner)).send({ target });
        // The source is parsed again on confirm: the one skill in it no longer parses.
        expect(outcome(res)).toEqual({ status: 422, code: 'skills.no_skill_found' });
        expect(res.body).toMatchObject({
          details: { failures: [expect.objectContaining({ code: 'skills.invalid_skill_md' })] },
        });
        expect(await row(slug)).toBeNull();
        expect(existsSync(join(ctx.config.dataDir, 'skills', slug))).toBe(false);
        expect(existsSync(personalDir(owner, slug))).toBe(false);
      },
    );

    it('refuses a save of the root SKILL.md holding it (422): the file and the row unchanged', async () => {
      const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd(`put-${tag}`) });
      const file = join(ctx.config.dataDir, 'skills', slug, 'SKILL.md');
      const before = { text: readFileSync(file, 'utf8'), row: await row(slug) };
      const read = await ctx.http.get(`/api/skills/${slug}/files?path=SKILL.md`).set(auth(admin));
      const res = await ctx.http
        .put(`/api/skills/${slug}/files`)
        .set(auth(admin))
        .send({
          path: 'SKILL.md',
          content: badSkillMd(slug, lines),
          revision: (read.body as { revision: string }).revision,
        });
      expect(outcome(res)).toEqual({ status: 422, code: 'skills.invalid_skill_md' });
      expect(readFileSync(file, 'utf8')).toBe(before.text);
      expect(await row(slug)).toEqual(before.row);

      const personal = await ctx.newPersonalSkill(alice, { 'SKILL.md': skillMd(`mine-${tag}`) });
      const mine = await ctx.http.get(`/api/skills/${personal}/files?path=SKILL.md`).set(auth(alice));
      const refused = await ctx.http
        .put(`/api/skills/${personal}/files`)
        .set(auth(alice))
        .send({
          path: 'SKILL.md',
          content: badSkillMd(personal, lines),
          revision: (mine.body as { revision: string }).revision,
        });
      expect(outcome(refused)).toEqual({ status: 422, code: 'skills.invalid_skill_md' });
      expect(readFileSync(join(personalDir(alice, personal), 'SKILL.md'), 'utf8')).toBe(skillMd(personal));
    });
  });

  it('leaves the file as it was when the index update of a save fails', async () => {
    const slug = await ctx.newSharedSkill(admin, { 'SKILL.md': skillMd('index-fails'), 'notes.md': 'v1' });
    const file = join(ctx.config.dataDir, 'skills', slug, 'SKILL.md');
    const before = { text: readFileSync(file, 'utf8'), row: await row(slug) };
    await ctx.dataSource.query(`
      CREATE FUNCTION refuse_index_fails() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
      CREATE TRIGGER refuse_index_fails BEFORE UPDATE ON skills FOR EACH ROW
        WHEN (NEW.slug = 'index-fails') EXECUTE FUNCTION refuse_index_fails();`);
    try {
      for (const [path, content] of [
        ['SKILL.md', before.text.replace('The index-fails skill.', 'Changed.')],
        ['notes.md', 'v2'],
      ]) {
        const read = await ctx.http.get(`/api/skills/${slug}/files?path=${path}`).set(auth(admin));
        const res = await ctx.http
          .put(`/api/skills/${slug}/files`)
          .set(auth(admin))
          .send({ path, content, revision: (read.body as { revision: string }).revision });
        expect(res.status).toBe(500);
      }
    } finally {
      await ctx.dataSource.query(
        `DROP TRIGGER refuse_index_fails ON skills; DROP FUNCTION refuse_index_fails();`,
      );
    }
    expect(readFileSync(file, 'utf8')).toBe(before.text);
    expect(readFileSync(join(ctx.config.dataDir, 'skills', slug, 'notes.md'), 'utf8')).toBe('v1');
    expect(await row(slug)).toEqual(before.row);
  });

  it('runs for a user whose personal SKILL.md holds such text (written in the workspace directly)', async () => {
    const user = await ctx.newUser();
    for (const [i, [, lines]] of UNSTORABLE.entries()) {
      const dir = personalDir(user, `by-hand-${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'SKILL.md'), badSkillMd(`by-hand-${i}`, lines));
    }
    await ctx.newPersonalSkill(user, { 'SKILL.md': skillMd('fine-one') });
    for (const input of ['first', 'second']) {
      const thread = await newThread(ctx, user);
      const before = fake.requests.length;
      fake.script({ text: 'done' });
      const run = await startRun(ctx, user, thread, { input });
      expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
      const prompt = systemPrompt(fake.requests[before]);
      expect(prompt).toContain('fine-one');
      expect(prompt).not.toContain('by-hand-');
    }
    const list = await ctx.http.get('/api/skills').set(auth(user));
    expect(list.status).toBe(200);
  });
});
