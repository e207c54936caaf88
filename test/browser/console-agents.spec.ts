import type { Page } from 'playwright-core';
import { browserContext, checkPage, type ConsoleApp, signIn } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { auth, isTerminal, waitForStatus } from '../support/runs/run-helpers';
import type { TestUser } from '../support/test-app';

describe('console: agents (settings from configurable_items, sharing, schedules, deletion)', () => {
  const suite = consoleSuite();
  let app: ConsoleApp, user: TestUser, page: Page;
  let admin: TestUser;
  beforeAll(async () => {
    admin = await suite.app.ctx.newUser({ role: 'admin' });
  });
  beforeEach(() => ({ app, user, page } = suite));

  const savedAgent = async (slug: string, as: TestUser = user) =>
    (await app.ctx.http.get(`/api/agents/${slug}`).set(auth(as))).body as {
      name: string;
      config: Record<string, unknown>;
      share_config: unknown;
    };

  it('creates an agent, sets it up with the generated form, and saves only what changed', async () => {
    await signIn(page, user);
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Researcher');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Researcher', level: 1 }).waitFor();
    const slug = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const form = (await app.ctx.http.get(`/api/agents/${slug}`).set(auth(user))).body.configurable_items as {
      field: string;
      options?: { value: string; label: string }[];
    }[];
    const tool = form.find((item) => item.field === 'tools')!.options![0];

    // The labels are the service's, in the console's language; a normal user gets no admin-only field.
    await page.getByRole('textbox', { name: 'System prompt' }).fill('Cite every source.');
    expect(await page.getByRole('spinbutton', { name: 'Maximum execution steps' }).count()).toBe(0);
    const tools = page.locator('fieldset[data-field="tools"]');
    await tools.getByRole('radio', { name: 'Only those chosen' }).check();
    await tools.getByRole('group', { name: 'Tools to use' }).getByText(tool.label, { exact: true }).click();
    const approval = page.locator('fieldset[data-field="approval"]');
    await approval.getByRole('button', { name: 'Add rule' }).click();
    await approval.getByRole('combobox', { name: 'Rule 1: tool name or pattern' }).fill('mcp:*');
    await approval.getByRole('combobox', { name: 'Rule 1: decision' }).selectOption('deny');
    await approval.getByRole('button', { name: 'Add rule' }).click();
    await approval.getByRole('combobox', { name: 'Rule 2: tool name or pattern' }).fill(tool.value);
    await approval.getByRole('button', { name: 'Move rule 2 up' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();

    const saved = await savedAgent(slug);
    expect(saved.config).toMatchObject({
      system_prompt: 'Cite every source.',
      tools: [tool.value],
      knowledges: 'all',
      approval: {
        default: 'auto',
        rules: [
          { tool: tool.value, decision: 'ask' },
          { tool: 'mcp:*', decision: 'deny' },
        ],
      },
    });
    // A second save with nothing changed sends nothing.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Nothing has changed.').waitFor();

    // A rule without a pattern is caught before the service is asked.
    await approval.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Fix the approval rules first.').waitFor();
    expect((await savedAgent(slug)).config.approval).toEqual(saved.config.approval);
  });

  it('counts the saved choices the editor cannot see, keeps them, and removes them only on "Clear all"', async () => {
    await app.ctx.newAgent(admin, { name: 'Private helper', slug: 'private-helper', is_subagent: true });
    const { slug } = await app.ctx.newAgent(admin, {
      name: 'Team lead',
      config: { subagents: ['private-helper', 'general-purpose'] },
      share_config: {
        version: 2,
        read_scope: { level: 'users', user_ids: [admin.id, user.id] },
        manage_scope: { level: 'users', user_ids: [user.id] },
      },
    });
    await signIn(page, user, `/agents/${slug}`);
    const subagents = page.locator('fieldset[data-field="subagents"]');
    await subagents.getByText('1 saved choices you cannot see are kept.').waitFor();
    expect(await subagents.getByText('Private helper').count()).toBe(0);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Team lead (renamed)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect((await savedAgent(slug, admin)).config.subagents).toEqual(['private-helper', 'general-purpose']);

    await subagents.getByRole('button', { name: 'Clear all Subagents' }).click();
    await subagents.getByText('1 saved choices you cannot see will be removed.').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect((await savedAgent(slug, admin)).config.subagents).toEqual([]);
  });

  it('shows the service’s refusal and keeps the form when the agent is gone meanwhile', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Short lived' });
    await signIn(page, user, `/agents/${slug}`);
    await page.getByRole('textbox', { name: 'System prompt' }).fill('Typed before the deletion.');
    await app.ctx.http.delete(`/api/agents/${slug}`).set(auth(user)).expect(204);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').filter({ hasText: slug }).waitFor();
    expect(await page.getByRole('textbox', { name: 'System prompt' }).inputValue()).toBe(
      'Typed before the deletion.',
    );
  });

  it('shares an agent with a colleague found by name, who may then use it but not change it', async () => {
    const colleague = await app.ctx.newUser();
    const { slug } = await app.ctx.newAgent(user, { name: 'Shared helper' });
    await signIn(page, user, `/agents/${slug}`);
    const sharing = page.getByRole('region', { name: 'Sharing' });
    await sharing.getByRole('combobox', { name: 'Who can use it: Level' }).waitFor();
    // A normal user may only name people.
    const levels = sharing.getByRole('combobox', { name: 'Who can use it: Level' });
    expect(await levels.locator('option:not([disabled])').allInnerTexts()).toEqual([
      'Only the creator',
      'Named users',
    ]);
    await levels.selectOption('users');
    const find = sharing.getByRole('textbox', { name: 'Who can use it: Find a user by name' });
    await find.fill(colleague.username);
    await find.press('Enter');
    await sharing.getByRole('button', { name: `Add ${colleague.username}` }).click();
    await sharing.getByRole('button', { name: 'Save sharing' }).click();
    await sharing.getByText('Sharing saved.').waitFor();
    expect((await savedAgent(slug)).share_config).toEqual({
      version: 2,
      // A new agent is read by its creator (the default scope), and now by the colleague too.
      read_scope: { level: 'users', user_ids: [user.id, colleague.id] },
      manage_scope: null,
    });

    const context = await browserContext(app);
    const theirs = await context.newPage();
    await signIn(theirs, colleague, '/agents');
    const row = theirs.locator(`[data-agent-slug="${slug}"]`);
    await row.getByText('Shared with you').waitFor();
    await row.getByText('Can use').waitFor();
    await row.getByRole('link', { name: 'Shared helper' }).click();
    await theirs.getByText('You can use this agent; only its managers change it.').waitFor();
    expect(await theirs.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await theirs.getByRole('button', { name: 'Delete Shared helper' }).count()).toBe(0);
    await context.close();
  });

  it('adds a schedule (a bad cron refused), runs it now, shows what it did, and deletes it', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Digest' });
    await signIn(page, user, `/agents/${slug}`);
    const schedules = page.getByRole('region', { name: 'Schedules' });
    await schedules.getByRole('textbox', { name: 'Cron (5 fields)' }).fill('61 * * * *');
    await schedules.getByRole('combobox', { name: 'Time zone' }).fill('Europe/Berlin');
    await schedules.getByRole('textbox', { name: 'Message each run starts with' }).fill('Summarise the day.');
    await schedules.getByRole('button', { name: 'Add schedule' }).click();
    await schedules.getByRole('alert').filter({ hasText: 'cron' }).waitFor();
    expect(await schedules.getByRole('textbox', { name: 'Message each run starts with' }).inputValue()).toBe(
      'Summarise the day.',
    );

    await schedules.getByRole('textbox', { name: 'Cron (5 fields)' }).fill('0 18 * * *');
    await schedules.getByRole('button', { name: 'Add schedule' }).click();
    await schedules.getByText('Schedule added.').waitFor();
    const listed = (await app.ctx.http.get(`/api/schedules?agent_slug=${slug}`).set(auth(user))).body.items;
    expect(listed).toEqual([
      expect.objectContaining({ cron: '0 18 * * *', timezone: 'Europe/Berlin', input: 'Summarise the day.' }),
    ]);
    const row = schedules.locator(`[data-schedule-id="${listed[0].id}"]`);
    await row.getByText(/Next: /).waitFor();

    await row.getByRole('switch', { name: 'Enabled: 0 18 * * *' }).click();
    await row.getByText('Off').waitFor();
    const [stored] = await app.ctx.dataSource.query(`SELECT enabled FROM schedules WHERE id = $1`, [
      listed[0].id,
    ]);
    expect(stored).toEqual({ enabled: false });

    app.fake.script({ text: 'Here is your digest.' });
    await row.getByRole('button', { name: 'Run now' }).click();
    await schedules.getByText('Started: the run is in a new conversation.').waitFor();
    await row.locator('[data-occurrence="started"]').waitFor();
    const occurrence = (await app.ctx.http.get(`/api/schedules/${listed[0].id}/occurrences`).set(auth(user)))
      .body.items[0];
    await waitForStatus(app.ctx, occurrence.run_id, isTerminal);
    await row.getByRole('link', { name: 'Open the conversation' }).click();
    await page.getByText('Here is your digest.').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/chat/${occurrence.thread_id}`);

    await page.goto(`/agents/${slug}`);
    await schedules
      .locator(`[data-schedule-id="${listed[0].id}"]`)
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
    await schedules.getByText('No schedules for this agent.').waitFor();
    expect((await app.ctx.http.get(`/api/schedules?agent_slug=${slug}`).set(auth(user))).body.items).toEqual(
      [],
    );
  });

  it('deletes an agent after stating the consequence; a builtin agent offers no deletion', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Disposable' });
    await signIn(page, user, `/agents/${slug}`);
    await page.getByText('Deleting removes the agent for everyone it is shared with').waitFor();
    await page.getByRole('button', { name: 'Delete Disposable' }).click();
    await page.getByRole('tooltip').getByText('Delete Disposable for everyone?').waitFor();
    await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
    await page.getByText('Agent Disposable deleted.').waitFor();
    expect((await app.ctx.http.get(`/api/agents/${slug}`).set(auth(user))).status).toBe(404);
    expect(await page.locator(`[data-agent-slug="${slug}"]`).count()).toBe(0);

    await page.goto('/agents/default-chatbot');
    await page.getByText('Builtin', { exact: false }).first().waitFor();
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
  });

  it('describes the form in Chinese when the console is in Chinese', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Bilingual' });
    await signIn(page, user, `/agents/${slug}`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.reload();
    await page.getByRole('textbox', { name: '系统提示词' }).waitFor();
    await page.getByText('全部（含新增）').first().waitFor();
  });

  for (const dark of [false, true]) {
    const theme = dark ? 'dark' : 'light';
    it(`the agents list and an agent's page at every width in the ${theme} theme`, async () => {
      const { slug } = await app.ctx.newAgent(admin, {
        name: `Showcase ${theme}`,
        config: { tools: [], approval: { default: 'auto', rules: [{ tool: 'execute', decision: 'ask' }] } },
      });
      await app.ctx.http
        .post(`/api/agents/${slug}/schedules`)
        .set(auth(admin))
        .send({ cron: '0 8 * * 1-5', timezone: 'Asia/Shanghai', input: 'Morning brief' })
        .expect(201);
      for (const width of [1440, 1024, 768, 375]) {
        const context = await browserContext(app, { width, dark });
        const shown = await context.newPage();
        await signIn(shown, admin, '/agents');
        await shown.locator(`[data-agent-slug="${slug}"]`).waitFor();
        await checkPage(shown, `agents-${width}-${theme}`);
        await shown.goto(`/agents/${slug}`);
        await shown.locator('[data-schedule-id]').first().waitFor();
        await checkPage(shown, `agent-${width}-${theme}`);
        await context.close();
      }
    }, 120_000);
  }
});
