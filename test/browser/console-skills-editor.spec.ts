import type { Page } from 'playwright-core';
import { signIn, type ConsoleApp } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { SkillsPage } from '../support/browser/skills-page';
import { auth } from '../support/runs/run-helpers';
import { skillMd } from '../support/skills';
import type { TestUser } from '../support/test-app';

describe("console: a skill's files and dependencies", () => {
  const suite = consoleSuite();
  let app: ConsoleApp, user: TestUser, page: Page, skills: SkillsPage;
  beforeEach(() => {
    ({ app, user, page } = suite);
    skills = new SkillsPage(page);
  });

  let count = 0;
  /** A fresh personal skill of the suite's user with a reference file; returns its slug. */
  async function newSkill(): Promise<string> {
    const slug = `notes-${++count}`;
    await app.ctx.newPersonalSkill(user, {
      'SKILL.md': skillMd(slug),
      'references/guide.md': 'First guide.\n',
    });
    return slug;
  }

  const readFile = async (slug: string, path: string) =>
    (await app.ctx.http.get(`/api/skills/${slug}/files`).query({ path }).set(auth(user))).body as {
      content: string;
      revision: string;
    };

  it('saves an edited file, creates one, and shows the refusal to delete the root SKILL.md', async () => {
    const slug = await newSkill();
    await signIn(page, user, `/skills/${slug}`);
    await skills.openFile('references/guide.md');
    const editor = skills.editor('references/guide.md');
    expect(await editor.inputValue()).toBe('First guide.\n');
    await editor.fill('Second guide.\n');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('references/guide.md saved.').waitFor();
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect((await readFile(slug, 'references/guide.md')).content).toBe('Second guide.\n');

    // Ctrl+S saves too.
    await editor.fill('Third guide.\n');
    await editor.press('Control+s');
    await page.getByText('references/guide.md saved.').waitFor();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached' });
    expect((await readFile(slug, 'references/guide.md')).content).toBe('Third guide.\n');

    await page.getByRole('textbox', { name: 'New file path' }).fill('scripts/check.sh');
    await page.getByRole('button', { name: 'Create file' }).click();
    await skills.editor('scripts/check.sh').waitFor();
    expect(new URL(page.url()).searchParams.get('file')).toBe('scripts/check.sh');
    expect((await readFile(slug, 'scripts/check.sh')).content).toBe('');

    // The same path again: the service's refusal, and the path stays typed.
    await page.getByRole('textbox', { name: 'New file path' }).fill('scripts/check.sh');
    await page.getByRole('button', { name: 'Create file' }).click();
    await page.getByRole('alert').filter({ hasText: '"scripts/check.sh" already exists.' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'New file path' }).inputValue()).toBe('scripts/check.sh');

    await skills.openFile('SKILL.md');
    await page.getByRole('button', { name: 'Delete file: SKILL.md' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete file' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The root SKILL.md cannot be deleted (delete the skill instead).' })
      .waitFor();
    expect((await readFile(slug, 'SKILL.md')).content).toContain(`name: ${slug}`);

    await skills.openFile('scripts/check.sh');
    await page.getByRole('button', { name: 'Delete file: scripts/check.sh' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete file' }).click();
    await page.getByText('scripts/check.sh deleted.').waitFor();
    // The tree is read again after the notice: wait for the row to go rather than sample it once.
    await page.locator('[data-path="scripts/check.sh"]').waitFor({ state: 'detached' });
    const gone = await app.ctx.http
      .get(`/api/skills/${slug}/files`)
      .query({ path: 'scripts/check.sh' })
      .set(auth(user));
    expect(gone.status).toBe(404);
  });

  it('keeps the draft on a revision conflict, shows the newer text, and resolves either way', async () => {
    const slug = await newSkill();
    await signIn(page, user, `/skills/${slug}?file=references/guide.md`);
    const editor = skills.editor('references/guide.md');
    await editor.waitFor();
    await editor.fill('My change.\n');

    // Someone else saves the file while the editor is open.
    const read = await readFile(slug, 'references/guide.md');
    const theirs = await app.ctx.http
      .put(`/api/skills/${slug}/files`)
      .set(auth(user))
      .send({ path: 'references/guide.md', content: 'Their change.\n', revision: read.revision });
    expect(theirs.status).toBe(200);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Someone saved this file after you opened it.' })
      .waitFor();
    expect(await editor.inputValue()).toBe('My change.\n');
    const saved = page.getByRole('textbox', { name: 'Saved version of references/guide.md' });
    expect(await saved.inputValue()).toBe('Their change.\n');
    expect((await readFile(slug, 'references/guide.md')).content).toBe('Their change.\n');

    // Mine, knowingly over theirs.
    await page.getByRole('button', { name: 'Save my version' }).click();
    await page.getByText('references/guide.md saved.').waitFor();
    await saved.waitFor({ state: 'detached' });
    expect((await readFile(slug, 'references/guide.md')).content).toBe('My change.\n');

    // A second clash, resolved by taking theirs: nothing of mine is saved, nothing left unsaved.
    await editor.fill('Another change of mine.\n');
    const again = await readFile(slug, 'references/guide.md');
    await app.ctx.http
      .put(`/api/skills/${slug}/files`)
      .set(auth(user))
      .send({ path: 'references/guide.md', content: 'Their second change.\n', revision: again.revision });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saved.waitFor();
    await page.getByRole('button', { name: 'Use the saved version' }).click();
    expect(await editor.inputValue()).toBe('Their second change.\n');
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect((await readFile(slug, 'references/guide.md')).content).toBe('Their second change.\n');

    // The next save goes over the revision taken.
    await editor.fill('Final.\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('references/guide.md saved.').waitFor();
    expect((await readFile(slug, 'references/guide.md')).content).toBe('Final.\n');
  });

  it('asks before leaving unsaved text: for another file, another page, and closing the tab', async () => {
    const slug = await newSkill();
    await signIn(page, user, `/skills/${slug}`);
    const root = skills.editor('SKILL.md');
    await root.waitFor();
    await root.fill(`${await root.inputValue()}\nMore steps.\n`);

    await skills.openFile('references/guide.md');
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.getByText('Your changes to SKILL.md are not saved').waitFor();
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await root.inputValue()).toContain('More steps.');
    expect(new URL(page.url()).searchParams.get('file')).toBeNull();

    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/skills/${slug}`);

    // The browser's own question when the tab goes away.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (question) => {
        resolve(question.type());
        void question.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);

    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
    // Nothing was saved.
    expect((await readFile(slug, 'SKILL.md')).content).not.toContain('More steps.');
  });

  it('saves the three dependency lists, shows a refusal keeping what was typed', async () => {
    const slug = await newSkill();
    await signIn(page, user, `/skills/${slug}`);
    const tools = page.getByRole('textbox', { name: 'Tools', exact: true });
    // A tool the runtime mounts itself cannot be a dependency (422): the refusal, the lists as typed.
    await tools.fill('read_file\nsubagent_start');
    await page.getByRole('button', { name: 'Save dependencies' }).click();
    await page.getByRole('alert').filter({ hasText: 'subagent_start cannot be a tool dependency' }).waitFor();
    expect(await tools.inputValue()).toBe('read_file\nsubagent_start');

    await tools.fill('read_file');
    await page.getByRole('button', { name: 'Save dependencies' }).click();
    await page.getByText('Dependencies saved.').waitFor();
    const skill = await app.ctx.http.get(`/api/skills/${slug}`).set(auth(user));
    expect(skill.body).toMatchObject({
      tool_dependencies: ['read_file'],
      mcp_dependencies: [],
      skill_dependencies: [],
    });
    // The open SKILL.md shows the lists the service wrote into it.
    await page.waitForFunction(
      `document.querySelector('textarea[aria-label="Contents of SKILL.md"]')?.value.includes('read_file')`,
    );
  });
});
