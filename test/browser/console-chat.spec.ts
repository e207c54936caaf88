import type { BrowserContext, Page } from 'playwright-core';
import {
  collectPageErrors,
  newContext,
  signIn,
  startConsoleApp,
  type ConsoleApp,
} from '../support/browser/console-browser';
import type { TestUser } from '../support/test-app';

describe('console chat in a browser', () => {
  let app: ConsoleApp;
  let user: TestUser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    app = await startConsoleApp();
    user = await app.ctx.newUser();
  }, 60_000);

  afterAll(() => app.close());

  beforeEach(async () => {
    app.fake.clearScript();
    context = await newContext(app);
    page = await context.newPage();
    errors = collectPageErrors(page);
  });

  afterEach(async () => {
    if (errors.length) console.log(errors);
    await context.close();
  });

  async function pickAgent(name: string): Promise<void> {
    // Ant Design's select: the combobox sits under the shown value; the options are its own elements.
    await page.getByRole('combobox', { name: 'Agent' }).click({ force: true });
    await page.locator('.ant-select-item-option', { hasText: name }).click();
  }

  async function send(text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  }

  it('signs in, streams an answer with a tool call, and signs out', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Lister', config: { tools: ['ls'] } });
    app.fake.script(
      { text: 'Let me look.', toolCalls: [{ id: 'call_ls', name: 'ls', args: { path: '.' } }] },
      { text: 'The folder is **empty** for now.' },
    );
    await signIn(page, user);
    await pickAgent('Lister');
    await send('What is in my folder?');

    await page.getByText('The folder is empty for now.').waitFor();
    await expectText(page.locator('strong'), 'empty');
    const card = page.locator('[data-tool-call-id="call_ls"]');
    await card.getByRole('button', { name: /ls/ }).click();
    expect(await card.innerText()).toContain('"path": "."');
    // The conversation was created on the agent and named after the first message.
    const threads = await app.ctx.http.get('/api/threads').set({ authorization: `Bearer ${user.token}` });
    expect(threads.body.items[0]).toMatchObject({ agent_slug: slug, title: 'What is in my folder?' });
    expect(page.url()).toContain(`/chat/${threads.body.items[0].id}`);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('yuxi.session')")).toBeNull();
    expect(errors).toEqual([]);
  });
});

async function expectText(locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  expect(await locator.first().innerText()).toBe(text);
}
