import type { Page } from 'playwright-core';
import { browserContext, checkPage, type ConsoleApp, signIn } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { SkillsPage, skillZip } from '../support/browser/skills-page';
import { auth } from '../support/runs/run-helpers';
import { forgeTransport, startForge, transportModule } from '../support/skill-forge';
import { skillMd } from '../support/skills';
import type { TestUser } from '../support/test-app';

type Listed = { slug: string; source: string; permission: string; enabled: boolean };

describe('console: skills (list, install, sharing, delete)', () => {
  // github.com and codeload.github.com answered by a local https server: remote installs stay offline.
  let forge: Awaited<ReturnType<typeof startForge>>;
  beforeAll(async () => {
    forge = await startForge();
  });
  const suite = consoleSuite({
    environment: () => ({ ALLOW_PRIVATE_NETWORK_TARGETS: 'github.com,codeload.github.com' }),
    modules: () => [transportModule(forgeTransport(forge.port))],
  });
  afterAll(() => forge?.close());
  let app: ConsoleApp, user: TestUser, page: Page, skills: SkillsPage;
  let admin: TestUser;
  beforeAll(async () => {
    admin = await suite.app.ctx.newUser({ role: 'admin' });
  });
  beforeEach(() => {
    ({ app, user, page } = suite);
    skills = new SkillsPage(page);
  });

  const listed = async (who: TestUser): Promise<Listed[]> =>
    (await app.ctx.http.get('/api/skills').query({ limit: 200 }).set(auth(who))).body.items as Listed[];

  it('installs an upload after its review: the ticked skill, as a personal one, listed and read back', async () => {
    await signIn(page, user);
    await page.getByRole('link', { name: 'Skills', exact: true }).click();
    await page.getByRole('heading', { name: 'Skills', level: 1 }).waitFor();
    await skills.upload(
      'bundle.zip',
      skillZip({
        'bundle/report-writer/SKILL.md': skillMd('report-writer', ['tool_dependencies: [read_file]']),
        'bundle/left-out/SKILL.md': skillMd('left-out'),
        'bundle/broken/SKILL.md': 'no frontmatter here\n',
      }),
    );

    const review = page.getByRole('region', { name: 'Review before installing' });
    await review.waitFor();
    const item = review.locator('[data-draft-item="report-writer"]');
    expect(await item.innerText()).toContain('read_file');
    await review.locator('[data-draft-failure="bundle/broken/SKILL.md"]').waitFor();
    // A normal user installs personal skills only: no shared target is offered.
    expect(await review.getByRole('combobox', { name: 'Install as' }).count()).toBe(0);
    expect(await review.getByRole('option').count()).toBe(0);
    await review.getByText('These skills are installed as your personal skills.').waitFor();

    await review.locator('[data-draft-item="left-out"]').getByRole('checkbox').uncheck();
    await review.getByRole('button', { name: 'Install selected (1)' }).click();
    await page.getByText('Installed as your personal skills: report-writer.').waitFor();
    await skills.row('personal', 'report-writer').waitFor();
    expect(await skills.row('personal', 'report-writer').innerText()).toContain('You manage it');

    const mine = (await listed(user)).filter((skill) => skill.source === 'personal');
    expect(mine.map((skill) => skill.slug)).toEqual(['report-writer']);
    const detail = await app.ctx.http.get('/api/skills/report-writer').set(auth(user));
    expect(detail.body.tool_dependencies).toEqual(['read_file']);
  });

  it("shows the service's refusal of an upload with no parsable skill, and installs nothing", async () => {
    await signIn(page, user, '/skills');
    await skills.upload('broken.zip', skillZip({ 'only/SKILL.md': 'name: but no frontmatter\n' }));
    const alert = page.getByRole('alert').filter({ hasText: 'No skill in the upload could be parsed.' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('only/SKILL.md');
    expect(await page.getByRole('region', { name: 'Review before installing' }).count()).toBe(0);
    // The chosen file is kept: the user can retry or pick another.
    expect(
      await page
        .getByLabel('A .zip of skill folders, or one SKILL.md')
        .evaluate((input) => (input as unknown as { files: { name: string }[] }).files[0]?.name),
    ).toBe('broken.zip');
    expect((await listed(user)).some((skill) => skill.slug === 'only')).toBe(false);
  });

  it('installs from a remote source through the same review, and discards a draft', async () => {
    await signIn(page, user, '/skills');
    await page.getByRole('textbox', { name: 'Source (owner/repo or an https URL)' }).fill('acme/tools');
    await page.getByRole('textbox', { name: 'Skill names (comma separated)' }).fill('remote-a, nope');
    await page.getByRole('button', { name: 'Fetch for review' }).click();
    await page.getByRole('alert').filter({ hasText: 'No skill named "nope" in the source.' }).waitFor();

    // What was typed stays: fix the names and fetch again.
    await page.getByRole('textbox', { name: 'Skill names (comma separated)' }).fill('remote-a');
    await page.getByRole('button', { name: 'Fetch for review' }).click();
    const review = page.getByRole('region', { name: 'Review before installing' });
    await review.locator('[data-draft-item="remote-a"]').waitFor();
    await review.getByRole('button', { name: 'Discard draft' }).click();
    await page.getByRole('button', { name: 'Fetch for review' }).waitFor();
    expect((await listed(user)).some((skill) => skill.slug === 'remote-a')).toBe(false);

    await page.getByRole('button', { name: 'Fetch for review' }).click();
    await review.getByRole('button', { name: 'Install selected (1)' }).click();
    await skills.row('personal', 'remote-a').waitFor();
    expect(forge.seen).toContain('codeload.github.com/acme/tools/zip/HEAD');
    expect((await listed(user)).find((skill) => skill.slug === 'remote-a')?.source).toBe('personal');
  });

  it('lets an admin install a shared skill for everyone; a user reads it, and sees it shadowed', async () => {
    await signIn(page, admin, '/skills');
    await skills.upload('team.md', Buffer.from(skillMd('team-guide')));
    const review = page.getByRole('region', { name: 'Review before installing' });
    await review.getByRole('combobox', { name: 'Install as' }).selectOption('shared');
    await review.getByRole('combobox', { name: 'Who can use it: Level' }).selectOption('global');
    await review.getByRole('button', { name: 'Install selected (1)' }).click();
    await page.getByText('Installed as shared skills: team-guide.').waitFor();
    const shared = await app.ctx.http.get('/api/skills/team-guide').set(auth(admin));
    expect(shared.body).toMatchObject({
      source: 'shared',
      share_config: { read_scope: { level: 'global' }, manage_scope: null },
    });

    // The user reads it, cannot change it; their own personal namesake then shadows it.
    const userContext = await browserContext(app);
    const userPage = await userContext.newPage();
    const userSkills = new SkillsPage(userPage);
    await signIn(userPage, user, '/skills');
    const row = userSkills.row('shared', 'team-guide');
    await row.waitFor();
    expect(await row.innerText()).toContain('Read only');
    await row.getByRole('link', { name: 'team-guide' }).click();
    await userPage.getByText('You may use this skill but not change it.').waitFor();
    expect(await userPage.getByRole('button', { name: 'Delete skill' }).count()).toBe(0);
    expect(await userSkills.editor('SKILL.md').getAttribute('readonly')).not.toBeNull();

    await app.ctx.newPersonalSkill(user, { 'SKILL.md': skillMd('team-guide', [], '# Mine\n') });
    await userPage.goto('/skills');
    await userSkills.row('shared', 'team-guide').getByText('Shadowed by your personal skill').waitFor();
    expect(await userSkills.row('shared', 'team-guide').getByRole('link').count()).toBe(0);
    await userSkills.row('personal', 'team-guide').getByRole('link').waitFor();
    await userContext.close();

    // The admin disables it, and deletes it after a confirmation that says what deleting does.
    await page.getByRole('link', { name: 'team-guide' }).first().click();
    await page.getByRole('switch', { name: 'Enabled' }).click();
    await page.getByRole('switch', { name: 'Enabled', checked: false }).waitFor();
    expect((await app.ctx.http.get('/api/skills/team-guide').set(auth(admin))).body.enabled).toBe(false);
    await page.getByRole('button', { name: 'Delete skill' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('removed for everyone it is shared with').waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/skills');
    expect((await app.ctx.http.get('/api/skills/team-guide').set(auth(admin))).status).toBe(404);
    // The user's personal namesake is untouched.
    expect((await app.ctx.http.get('/api/skills/team-guide').set(auth(user))).body.source).toBe('personal');
  });

  it('lets a normal user who manages a shared skill share it with named users only, explaining the 403', async () => {
    const slug = await app.ctx.newSharedSkill(
      admin,
      { 'SKILL.md': skillMd('team-playbook') },
      {
        version: 2,
        read_scope: { level: 'global' },
        manage_scope: { level: 'users', user_ids: [user.id] },
      },
    );
    await signIn(page, user, `/skills/${slug}`);
    const sharing = page.getByRole('region', { name: 'Sharing' });
    const readLevel = sharing.getByRole('combobox', { name: 'Who can use it: Level' });
    await readLevel.waitFor();
    // The saved level stays shown, but only the users level (or nobody else) can be chosen.
    expect(await readLevel.inputValue()).toBe('global');
    expect(await readLevel.locator('option:not([disabled])').allInnerTexts()).toEqual([
      'Only the creator',
      'Named users',
    ]);
    await sharing.getByRole('button', { name: 'Save sharing' }).click();
    await sharing
      .getByRole('alert')
      .filter({ hasText: 'Only an admin may share a skill at the global level' })
      .waitFor();

    await readLevel.selectOption('users');
    // People are found by name in the user directory, which a normal user may search.
    const colleague = await app.ctx.newUser();
    const findUser = sharing.getByRole('textbox', { name: 'Who can use it: Find a user by name' });
    for (const named of [user, colleague]) {
      await findUser.fill(named.username.slice(0, -2));
      await findUser.press('Enter');
      await sharing.getByRole('button', { name: `Add ${named.username}` }).click();
    }
    const readers = sharing.getByRole('group', { name: 'Who can use it: Users' });
    await readers.getByText(colleague.username).waitFor();
    // The manage scope names its saved user by name, not by id.
    await sharing.getByRole('group', { name: 'Who can change it: Users' }).getByText(user.username).waitFor();
    await sharing.getByRole('button', { name: 'Save sharing' }).click();
    await sharing.getByText('Sharing saved.').waitFor();
    const saved = await app.ctx.http.get(`/api/skills/${slug}`).set(auth(admin));
    expect(saved.body.share_config).toEqual({
      version: 2,
      read_scope: { level: 'users', user_ids: [user.id, colleague.id] },
      manage_scope: { level: 'users', user_ids: [user.id] },
    });
  });

  it('deletes a personal skill after saying a shared namesake applies again, and exports a zip', async () => {
    await app.ctx.newPersonalSkill(user, { 'SKILL.md': skillMd('scratch'), 'notes.md': 'n' });
    await signIn(page, user, '/skills/scratch');
    await page.getByRole('heading', { name: 'scratch', level: 1 }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export .zip' }).click();
    expect((await download).suggestedFilename()).toBe('scratch.zip');

    await page.getByRole('button', { name: 'Delete skill' }).click();
    await page
      .getByRole('dialog')
      .getByText('If a shared skill has the same slug, it applies to you again.')
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/skills');
    expect((await app.ctx.http.get('/api/skills/scratch').set(auth(user))).status).toBe(404);
  });

  for (const dark of [false, true]) {
    const theme = dark ? 'dark' : 'light';
    it(`the skill list and a skill's page at every width in the ${theme} theme`, async () => {
      const owner = await app.ctx.newUser();
      await app.ctx.newPersonalSkill(owner, {
        'SKILL.md': skillMd('field-notes', ['tool_dependencies: [read_file]']),
        'references/guide.md': '# Guide\n',
        'scripts/run.sh': 'echo hi\n',
      });
      // A shared skill the owner manages: its page adds the sharing form.
      const shared = await app.ctx.newSharedSkill(
        admin,
        { 'SKILL.md': skillMd(`crew-${theme}`) },
        {
          version: 2,
          read_scope: { level: 'users', user_ids: [owner.id] },
          manage_scope: { level: 'users', user_ids: [owner.id] },
        },
      );
      for (const width of [1440, 1024, 768, 375]) {
        const context = await browserContext(app, { width, dark });
        const shown = await context.newPage();
        await signIn(shown, owner, '/skills');
        await shown.locator('[data-skill="personal:field-notes"]').waitFor();
        await checkPage(shown, `skills-${width}-${theme}`);
        await shown.goto('/skills/field-notes');
        await new SkillsPage(shown).editor('SKILL.md').waitFor();
        await checkPage(shown, `skill-${width}-${theme}`);
        await shown.goto(`/skills/${shared}`);
        await shown.getByRole('button', { name: 'Save sharing' }).waitFor();
        await checkPage(shown, `skill-shared-${width}-${theme}`);
        await context.close();
      }
    }, 120_000);
  }
});
