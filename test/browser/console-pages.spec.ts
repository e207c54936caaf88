import type { Page } from 'playwright-core';
import {
  collectPageErrors,
  browserContext,
  screenshot,
  seriousA11yViolations,
  signIn,
  startConsoleApp,
  type ConsoleApp,
} from '../support/browser/console-browser';
import { newThread, startRun, waitForStatus, isTerminal } from '../support/runs/run-helpers';
import type { TestUser } from '../support/test-app';

const WIDTHS = [1440, 1024, 768, 375];

describe('console pages: every width and theme, accessibility, sign-in flows', () => {
  let app: ConsoleApp;
  let user: TestUser;
  let threadId: string;

  beforeAll(async () => {
    app = await startConsoleApp();
    user = await app.ctx.newUser();
    const { slug } = await app.ctx.newAgent(user, {
      name: 'Showcase',
      config: {
        tools: ['write_file'],
        approval: { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] },
      },
    });
    threadId = await newThread(app.ctx, user, slug);
    // A conversation with Markdown, a tool call and an approval waiting: the chat page's main states.
    app.fake.script(
      { text: 'Here is a **plan**:\n\n1. Read\n2. Write\n\n```ts\nconst x = 1;\n```' },
      { toolCalls: [{ id: 'call_show', name: 'write_file', args: { file_path: 'a.md', content: 'a' } }] },
    );
    const first = await startRun(app.ctx, user, threadId, { input: 'Make a plan' });
    await waitForStatus(app.ctx, first.run_id, isTerminal);
    const second = await startRun(app.ctx, user, threadId, { input: 'Now write it' });
    await waitForStatus(app.ctx, second.run_id, (s) => s === 'waiting');
  }, 90_000);

  afterAll(() => app.close());

  async function check(page: Page, name: string, errors: string[]): Promise<void> {
    await screenshot(page, name);
    expect({ name, violations: await seriousA11yViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, errors }).toEqual({ name, errors: [] });
  }

  for (const dark of [false, true]) {
    for (const width of WIDTHS) {
      const theme = dark ? 'dark' : 'light';
      it(`every page at ${width} px in the ${theme} theme`, async () => {
        const context = await browserContext(app, { width, dark });
        const page = await context.newPage();
        const errors = collectPageErrors(page);
        try {
          await page.goto('/sign-in');
          await page.getByRole('button', { name: 'Sign in' }).waitFor();
          await check(page, `sign-in-${width}-${theme}`, errors);

          await signIn(page, user, `/chat/${threadId}`);
          await page.getByRole('button', { name: 'Approve' }).waitFor();
          await check(page, `chat-${width}-${theme}`, errors);

          await page.goto('/chat');
          await page.getByText('Send a message to start the conversation.').waitFor();
          await check(page, `chat-new-${width}-${theme}`, errors);

          await page.goto('/tools');
          await page.locator('[data-tool-id]').first().waitFor();
          await check(page, `tools-${width}-${theme}`, errors);

          await page.goto('/api-keys');
          await page.getByRole('button', { name: 'Create key' }).waitFor();
          await check(page, `api-keys-${width}-${theme}`, errors);

          await page.goto('/no/such/page');
          await page.getByRole('heading', { name: 'Page not found' }).waitFor();
          await check(page, `not-found-${width}-${theme}`, errors);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('refuses a wrong password with a message and keeps the user on the sign-in page', async () => {
    const context = await browserContext(app);
    const page = await context.newPage();
    await page.goto('/chat');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The username or password is wrong.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();
  });

  it('sends a user whose session ended back to sign in, then to the page they were on', async () => {
    const context = await browserContext(app);
    const page = await context.newPage();
    await signIn(page, user, `/chat/${threadId}`);
    // The token is no longer accepted (as after a password change): the next call is a 401.
    await page.evaluate(`(() => {
      const saved = JSON.parse(sessionStorage.getItem('yuxi.session'));
      saved.token = 'not-a-valid-token';
      sessionStorage.setItem('yuxi.session', JSON.stringify(saved));
    })()`);
    await page.reload();
    await page.getByText('Your session ended. Sign in again to go on.').waitFor();
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/chat/${threadId}`);
    await context.close();
  });

  it('never redirects after sign-in to another origin', async () => {
    const context = await browserContext(app);
    const page = await context.newPage();
    await signIn(page, user, '/sign-in?redirect=//evil.example/steal');
    expect(new URL(page.url()).origin).toBe(app.baseUrl);
    expect(new URL(page.url()).pathname).toBe('/chat');
    await context.close();
  });
});

describe('console without a chat model', () => {
  let app: ConsoleApp;

  beforeAll(async () => {
    // The default OpenAI URL and no key: the service has no model.
    app = await startConsoleApp({ OPENAI_BASE_URL: 'https://api.openai.com/v1' });
  }, 60_000);

  afterAll(() => app.close());

  it('says plainly that no model is configured when a run fails for it', async () => {
    const user = await app.ctx.newUser();
    await app.ctx.newAgent(user, { name: 'Modelless' });
    const context = await browserContext(app);
    const page = await context.newPage();
    await signIn(page, user);
    await page.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Modelless' });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello?');
    await box.press('Enter');
    await page.getByText('No chat model is configured on this service.', { exact: false }).waitFor();
    expect(await page.getByText('models.not_configured').count()).toBe(1);
    await context.close();
  });
});
