import type { Page } from 'playwright-core';
import { browserContext, checkPage, type ConsoleApp, signIn } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { isTerminal, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import type { TestUser } from '../support/test-app';

describe('console: users (admin), usage, marks, and what a normal user may open', () => {
  const suite = consoleSuite();
  let app: ConsoleApp, user: TestUser, page: Page;
  let admin: TestUser;
  beforeAll(async () => {
    admin = await suite.app.ctx.newUser({ role: 'admin' });
  });
  beforeEach(() => ({ app, user, page } = suite));

  it('lets an admin create a user, refuses a taken name, and disables and enables the account', async () => {
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Username' }).fill('dana');
    await page.getByLabel('Initial password').fill('a-long-password-1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User dana created.').waitFor();
    await page.locator('[data-username="dana"]').waitFor();
    const login = await app.ctx.http
      .post('/api/auth/token')
      .send({ username: 'dana', password: 'a-long-password-1' });
    expect(login.status).toBe(200);
    const dana = { authorization: `Bearer ${login.body.access_token}` };

    // The same name again: the service's refusal is shown, nothing is created.
    await page.getByRole('textbox', { name: 'Username' }).fill('Dana');
    await page.getByLabel('Initial password').fill('another-password-2');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('alert').filter({ hasText: /taken/i }).waitFor();
    expect(await page.locator('[data-username="Dana"]').count()).toBe(0);

    await page.getByRole('switch', { name: 'Account enabled: dana' }).click();
    await page.locator('[data-username="dana"] [role=switch][aria-checked="false"]').waitFor();
    const refused = await app.ctx.http.get('/api/auth/me').set(dana);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('auth.account_disabled');
    await page.getByRole('switch', { name: 'Account enabled: dana' }).click();
    await page.locator('[data-username="dana"] [role=switch][aria-checked="true"]').waitFor();
    const rows = await app.ctx.dataSource.query<{ disabled: boolean }[]>(
      `SELECT disabled FROM users WHERE username = 'dana'`,
    );
    expect(rows).toEqual([{ disabled: false }]);
  });

  it('lets an admin create departments, place accounts in them, and refuses a taken name', async () => {
    const member = await suite.app.ctx.newUser();
    await signIn(page, admin, '/users');
    const panel = page.getByRole('region', { name: 'Departments' });
    await panel.getByRole('textbox', { name: 'Department name' }).fill('Research');
    await panel.getByRole('textbox', { name: 'Description' }).fill('People who read papers');
    await panel.getByRole('button', { name: 'Create department' }).click();
    const research = panel.locator('[data-department="Research"]');
    await research.getByText('Accounts: 0').waitFor();
    const [{ id: researchId }] = await app.ctx.dataSource.query<{ id: string }[]>(
      `SELECT id::text AS id FROM departments WHERE name = 'Research' AND description = 'People who read papers'`,
    );

    // The same name again: refused with the service's reason, what was typed stays.
    await panel.getByRole('textbox', { name: 'Department name' }).fill('Research');
    await panel.getByRole('button', { name: 'Create department' }).click();
    await panel
      .getByRole('alert')
      .filter({ hasText: /taken|exists/i })
      .waitFor();
    expect(await panel.getByRole('textbox', { name: 'Department name' }).inputValue()).toBe('Research');
    expect(await panel.locator('[data-department="Research"]').count()).toBe(1);

    // Moving an account takes effect at once and is counted.
    await page
      .getByRole('combobox', { name: `Department: ${member.username}` })
      .selectOption({ label: 'Research' });
    await research.getByText('Accounts: 1').waitFor();
    const moved = await app.ctx.dataSource.query<{ department_id: string }[]>(
      `SELECT department_id::text AS department_id FROM users WHERE id = $1`,
      [member.id],
    );
    expect(moved).toEqual([{ department_id: researchId }]);

    // An admin offers only the user role, and cannot change another admin's account.
    const roleOfMember = page.getByRole('combobox', { name: `Role: ${member.username}` });
    expect(await roleOfMember.locator('option').allInnerTexts()).toEqual(['User']);
    const otherAdmin = await suite.app.ctx.newUser({ role: 'admin' });
    await page.reload();
    expect(await page.getByRole('combobox', { name: `Role: ${otherAdmin.username}` }).isDisabled()).toBe(
      true,
    );
    expect(
      await page.getByRole('switch', { name: `Account enabled: ${otherAdmin.username}` }).isDisabled(),
    ).toBe(true);

    // Made an admin meanwhile by someone else: the move is refused and the row shows what is stored.
    await app.ctx.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [member.id]);
    await page
      .getByRole('combobox', { name: `Department: ${member.username}` })
      .selectOption({ label: 'default' });
    await page.getByRole('alert').filter({ hasText: member.username }).waitFor();
    const select = page.getByRole('combobox', { name: `Department: ${member.username}` });
    // The alert and the row's reset come from one change of state, so they are on the page together.
    expect(await select.inputValue()).toBe(researchId);
    const kept = await app.ctx.dataSource.query<{ department_id: string }[]>(
      `SELECT department_id::text AS department_id FROM users WHERE id = $1`,
      [member.id],
    );
    expect(kept).toEqual([{ department_id: researchId }]);
  });

  it('never shows a normal user the admin navigation; a deep link says "not allowed"', async () => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await signIn(page, user);
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await page.goto('/users');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(asked).not.toContain('/api/users');
    // The server decides too: the same call is refused.
    const direct = await app.ctx.http.get('/api/users').set({ authorization: `Bearer ${user.token}` });
    expect(direct.status).toBe(403);
  });

  it('shows the usage of the period by day, model and agent name, and to an admin by user name', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Counter' });
    app.fake.script({ text: 'counted' });
    const threadId = await newThread(app.ctx, user, slug);
    const run = await startRun(app.ctx, user, threadId, { input: 'count me' });
    await waitForStatus(app.ctx, run.run_id, isTerminal);

    await signIn(page, user, '/usage');
    const today = new Date().toISOString().slice(0, 10);
    const row = page.locator(`tr[data-key="${today}"]`);
    await row.waitFor();
    // The fake model reports 11 prompt and 7 completion tokens per call.
    expect((await row.locator('td').allInnerTexts()).map((text) => text.trim())).toEqual([
      '11',
      '7',
      '0',
      '1',
    ]);
    const groupBy = page.getByRole('combobox', { name: 'Group by' });
    expect(await groupBy.locator('option').allInnerTexts()).toEqual(['Day', 'Model', 'Agent']);
    await groupBy.selectOption('model');
    await page.locator('tr[data-key="fake-model"]').waitFor();
    // By agent: named, not shown by id.
    await groupBy.selectOption('agent');
    const { id: agentId } = (
      await app.ctx.dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM agents WHERE slug = $1`, [
        slug,
      ])
    )[0];
    expect(await page.locator(`tr[data-key="${agentId}"] th`).innerText()).toBe('Counter');

    const adminContext = await browserContext(app);
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, admin, '/usage');
    await adminPage.getByRole('combobox', { name: 'Group by' }).selectOption('user');
    const byUser = adminPage.locator(`tr[data-key="${user.id}"]`);
    await byUser.waitFor();
    expect(await byUser.locator('th').innerText()).toBe(user.username);
    await adminContext.close();
  });

  it('lists the marks a run left, filtered by agent, linked to the conversation', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Reviewer' });
    await app.ctx.newAgent(user, { name: 'Quiet one' });
    app.fake.script(
      {
        toolCalls: [
          { id: 'call_mark', name: 'mark_for_improvement', args: { reason: 'The answer cited no source.' } },
        ],
      },
      { text: 'marked' },
    );
    const threadId = await newThread(app.ctx, user, slug);
    const run = await startRun(app.ctx, user, threadId, { input: 'review me' });
    await waitForStatus(app.ctx, run.run_id, isTerminal);

    await signIn(page, user);
    await page.getByRole('link', { name: 'Marks' }).click();
    const mark = page.locator('[data-mark-id]').filter({ hasText: 'The answer cited no source.' });
    await mark.waitFor();
    expect(await mark.innerText()).toContain('Reviewer');
    await page.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Quiet one' });
    await page.getByText('No marks for this choice.', { exact: false }).waitFor();
    await page.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Reviewer' });
    await mark.getByRole('link', { name: 'Open the conversation' }).click();
    await page.waitForURL((url) => url.pathname === `/chat/${threadId}`);
    await page.getByText('review me').waitFor();

    const adminContext = await browserContext(app);
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, admin, '/marks');
    const seen = adminPage.locator('[data-mark-id]').filter({ hasText: 'The answer cited no source.' });
    await seen.getByText(`by ${user.username}`).waitFor();
    // Not the admin's conversation: no link to it.
    expect(await seen.getByRole('link').count()).toBe(0);
    await adminContext.close();
  });

  for (const dark of [false, true]) {
    const theme = dark ? 'dark' : 'light';
    it(`the users, usage, marks and not-allowed pages at every width in the ${theme} theme`, async () => {
      for (const width of [1440, 1024, 768, 375]) {
        const context = await browserContext(app, { width, dark });
        const adminPage = await context.newPage();
        await signIn(adminPage, admin, '/users');
        await adminPage.locator(`[data-username="${admin.username}"]`).waitFor();
        await checkPage(adminPage, `users-${width}-${theme}`);
        await adminPage.goto('/usage');
        await adminPage.locator('table, .empty').first().waitFor();
        await checkPage(adminPage, `usage-${width}-${theme}`);
        await adminPage.goto('/marks');
        await adminPage.locator('.marks, .empty').first().waitFor();
        await checkPage(adminPage, `marks-${width}-${theme}`);
        await context.close();

        const userContext = await browserContext(app, { width, dark });
        const userPage = await userContext.newPage();
        await signIn(userPage, user, '/users');
        await userPage.getByRole('heading', { name: 'Not allowed' }).waitFor();
        await checkPage(userPage, `not-allowed-${width}-${theme}`);
        await userContext.close();
      }
      // Twelve pages, each rendered and checked by axe: on a loaded two-core machine this passed 30 s.
    }, 120_000);
  }
});
