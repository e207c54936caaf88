import type { Page, Request } from 'playwright-core';
import {
  browserContext,
  checkPage,
  type ConsoleApp,
  screenshot,
  signIn,
} from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { auth } from '../support/runs/run-helpers';
import { startFakeTavily, type FakeVendor } from '../support/web-search/fake-vendors';
import { TAVILY_RESULTS } from '../support/web-search/fixtures';
import type { TestUser } from '../support/test-app';

const WEB = '/api/system/settings/web-search';
const ENV_KEY = 'tvly-env-key-aaaa1111';
const SAVED_KEY = 'tvly-saved-key-bbbb2222';
const DRAFT_KEY = 'tvly-draft-key-cccc3333';
const PAGE_TEXT = '# Example Domain';

describe('console: settings (web search, remote skill hosts, knowledge)', () => {
  // A local Tavily (it accepts one key at a time): the app is pointed at it, with a key in the environment.
  let tavily: FakeVendor;
  beforeAll(async () => {
    tavily = await startFakeTavily(SAVED_KEY, {
      results: TAVILY_RESULTS,
      pages: { 'https://example.com/': PAGE_TEXT },
    });
  });
  const suite = consoleSuite({
    environment: () => ({
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      TAVILY_API_KEY: ENV_KEY,
      TAVILY_BASE_URL: tavily.baseUrl,
    }),
  });
  afterAll(() => tavily?.close());
  let app: ConsoleApp, user: TestUser, page: Page;
  let root: TestUser, admin: TestUser;
  beforeAll(async () => {
    root = await suite.app.ctx.newUser({ role: 'superadmin' });
    admin = await suite.app.ctx.newUser({ role: 'admin' });
  });
  beforeEach(() => {
    ({ app, user, page } = suite);
    tavily.reset();
    tavily.key = SAVED_KEY;
  });

  const get = async (who: TestUser, path: string) => {
    const res = await app.ctx.http.get(path).set(auth(who));
    expect(res.status).toBe(200);
    return res.body;
  };
  const storedKey = async () =>
    (
      await app.ctx.dataSource.query<{ tavily_api_key: string | null }[]>(
        `SELECT tavily_api_key FROM web_search_settings`,
      )
    )[0]?.tavily_api_key;
  const tavilyRow = () => page.locator('[data-vendor="tavily"]');
  const keyBox = () => page.getByLabel('New key for Tavily');
  /** The body of the next PUT to the web search settings, sent by `act`. */
  async function putBody(act: () => Promise<void>): Promise<unknown> {
    const sent = page.waitForRequest((r: Request) => r.method() === 'PUT' && r.url().endsWith(WEB));
    await act();
    return (await sent).postDataJSON();
  }

  it('lets a superadmin choose the providers and save a key, read back redacted and stored encrypted', async () => {
    await signIn(page, root);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const web = page.getByRole('region', { name: 'Web search' });
    // Before: the environment's key, redacted.
    await tavilyRow().getByText('tvly…1111').waitFor();
    expect(await tavilyRow().innerText()).toContain('From the environment');
    expect(await web.locator('[data-vendor="doubao"]').innerText()).toContain('No key');

    await web.getByRole('combobox', { name: 'Search provider' }).selectOption('tavily');
    await web.getByRole('combobox', { name: 'Fetch provider' }).selectOption('tavily');
    await keyBox().fill(SAVED_KEY);
    const body = await putBody(() => web.getByRole('button', { name: 'Save web search settings' }).click());
    // Only what changed: the providers and the one key typed.
    expect(body).toEqual({
      search_provider: 'tavily',
      fetch_provider: 'tavily',
      api_keys: { tavily: SAVED_KEY },
    });
    await web.getByText('Web search settings saved.').waitFor();
    await tavilyRow().getByText('tvly…2222').waitFor();
    expect(await tavilyRow().innerText()).toContain('Saved in settings');
    expect(await keyBox().inputValue()).toBe('');
    expect(await page.content()).not.toContain(SAVED_KEY);

    const settings = await get(root, WEB);
    expect(settings).toEqual({
      search_provider: 'tavily',
      fetch_provider: 'tavily',
      providers: {
        tavily: { has_key: true, key_preview: 'tvly…2222', source: 'settings' },
        deepseek: { has_key: false, key_preview: null, source: 'none' },
        doubao: { has_key: false, key_preview: null, source: 'none' },
      },
    });
    const stored = await storedKey();
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(SAVED_KEY);

    // Saving again with nothing changed makes no call.
    const puts: string[] = [];
    page.on('request', (r) => r.method() === 'PUT' && puts.push(r.url()));
    await web.getByRole('button', { name: 'Save web search settings' }).click();
    await web.getByText('Nothing changed.').waitFor();
    expect(puts).toEqual([]);
  });

  it('tests a draft key without saving it, shows a refused key with its code, and clears the saved key', async () => {
    await app.ctx.http
      .put(WEB)
      .set(auth(root))
      .send({ api_keys: { tavily: SAVED_KEY } });
    await signIn(page, root, '/settings');
    const web = page.getByRole('region', { name: 'Web search' });
    await tavilyRow().getByText('tvly…2222').waitFor();

    // The vendor now takes the draft key only: the test must send the key typed, not the saved one.
    tavily.key = DRAFT_KEY;
    await keyBox().fill(DRAFT_KEY);
    await web.getByText('Uses the key typed above for Tavily, for this test only.').waitFor();
    await web.getByRole('textbox', { name: 'Query' }).fill('release 4.0');
    await web.getByRole('button', { name: 'Test', exact: true }).click();
    await web.getByText(/Works: the vendor answered in \d+ ms\./).waitFor();
    await web.getByText('Results: 2').waitFor();
    const [call] = tavily.calls('/search');
    expect(call.authorization).toBe(`Bearer ${DRAFT_KEY}`);
    expect(call.body.query).toBe('release 4.0');

    // A fetch with the same draft key: the page's length.
    await web.getByRole('combobox', { name: 'Kind' }).selectOption('fetch');
    await web.getByRole('textbox', { name: 'Page URL' }).fill('https://example.com/');
    await web.getByRole('button', { name: 'Test', exact: true }).click();
    await web.getByText(`Characters of content: ${PAGE_TEXT.length}`).waitFor();

    // Nothing was saved by the tests.
    expect((await get(root, WEB)).providers.tavily.key_preview).toBe('tvly…2222');

    // A wrong key: the vendor's refusal, with its code.
    await web.getByRole('combobox', { name: 'Kind' }).selectOption('search');
    await keyBox().fill('tvly-wrong-key-0000');
    await web.getByRole('button', { name: 'Test', exact: true }).click();
    const refused = web.getByRole('alert').filter({ hasText: 'web_search.vendor_rejected_key' });
    await refused.waitFor();
    expect(await refused.innerText()).toContain('refused the API key');

    // Clear the saved key (the typed one goes too): null is sent and the environment's key applies again.
    await web.getByRole('button', { name: 'Clear the saved key for Tavily' }).click();
    expect(await keyBox().inputValue()).toBe('');
    await web.getByText('Cleared when you save').waitFor();
    const body = await putBody(() => web.getByRole('button', { name: 'Save web search settings' }).click());
    expect(body).toEqual({ api_keys: { tavily: null } });
    await tavilyRow().getByText('tvly…1111').waitFor();
    expect(await tavilyRow().innerText()).toContain('From the environment');
    expect(await web.getByRole('button', { name: 'Clear the saved key for Tavily' }).count()).toBe(0);
    expect((await get(root, WEB)).providers.tavily).toEqual({
      has_key: true,
      key_preview: 'tvly…1111',
      source: 'env',
    });
    expect(await storedKey()).toBeNull();
  });

  it('shows an admin the skill hosts and knowledge only: refuses a bad host, saves good ones, switches knowledge off', async () => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Settings' }).click();
    const skills = page.getByRole('region', { name: 'Remote skill sources' });
    const knowledge = page.getByRole('region', { name: 'Knowledge' });
    const hosts = skills.getByRole('textbox', { name: 'Allowed hosts' });
    await hosts.waitFor();
    await knowledge.getByRole('switch', { name: 'Knowledge on' }).waitFor();
    expect(await page.getByRole('region', { name: 'Web search' }).count()).toBe(0);
    expect(asked.filter((path) => path.startsWith(WEB))).toEqual([]);
    expect(await hosts.inputValue()).toBe('github.com\nmodelscope.cn');

    // A bad host: the console's hint, then the service's refusal on save; the text stays as typed.
    const typed = 'github.com\nGitHub.com/org';
    await hosts.fill(typed);
    await skills.getByText('GitHub.com/org: write the host only', { exact: false }).waitFor();
    await skills.getByRole('button', { name: 'Save hosts' }).click();
    const refusal = skills.getByRole('alert').filter({ hasText: 'common.validation_failed' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('remote_source_allowed_hosts');
    expect(await hosts.inputValue()).toBe(typed);
    expect(await get(admin, '/api/system/settings/skills')).toEqual({
      remote_source_allowed_hosts: ['github.com', 'modelscope.cn'],
    });

    await hosts.fill('github.com\n\ngit.example.com, github.com');
    await skills.getByRole('button', { name: 'Save hosts' }).click();
    await skills.getByText('Allowed hosts saved.').waitFor();
    expect(await skills.getByRole('alert').count()).toBe(0);
    expect(await hosts.inputValue()).toBe('github.com\ngit.example.com');
    expect(await get(admin, '/api/system/settings/skills')).toEqual({
      remote_source_allowed_hosts: ['github.com', 'git.example.com'],
    });

    // An empty list says what it means, and is saved as [].
    await hosts.fill('');
    await skills.getByText('The list is empty: remote skill installs are disabled.').waitFor();
    await skills.getByRole('button', { name: 'Save hosts' }).click();
    await skills.getByText('Allowed hosts saved.').waitFor();
    expect(await get(admin, '/api/system/settings/skills')).toEqual({ remote_source_allowed_hosts: [] });

    // Knowledge off: the switch says what that means and the service reads it back.
    await knowledge.getByText('runs get no knowledge tools', { exact: false }).waitFor();
    const toggle = knowledge.getByRole('switch', { name: 'Knowledge on' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await knowledge.getByText('Knowledge switched off.').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await get(admin, '/api/system/settings/knowledge')).toEqual({ enabled: false });
    expect(asked.filter((path) => path.startsWith(WEB))).toEqual([]);
  });

  it('never shows a normal user the Settings link; a deep link says "not allowed" and calls nothing', async () => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await signIn(page, user);
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(asked.filter((path) => path.startsWith('/api/system/settings'))).toEqual([]);
    // The server decides too.
    const direct = await app.ctx.http.get('/api/system/settings/knowledge').set(auth(user));
    expect(direct.status).toBe(403);
  });

  for (const dark of [false, true]) {
    const theme = dark ? 'dark' : 'light';
    it(`the settings page at every width in the ${theme} theme`, async () => {
      for (const width of [1920, 1280, 768, 375]) {
        const context = await browserContext(app, { width, dark });
        const shown = await context.newPage();
        await signIn(shown, root, '/settings');
        await shown.locator('[data-vendor="tavily"]').waitFor();
        await shown.getByRole('switch', { name: 'Knowledge on' }).waitFor();
        // A hint and a test failure on screen, so their colours are checked too.
        await shown.getByRole('textbox', { name: 'Allowed hosts' }).fill('github.com\n*.example.com');
        await shown.getByLabel('New key for Tavily').fill('tvly-wrong-key-0000');
        await shown.getByRole('button', { name: 'Test', exact: true }).click();
        await shown.getByRole('alert').filter({ hasText: 'web_search.vendor_rejected_key' }).waitFor();
        // The page scrolls inside <main>: one picture from the top, one from the end.
        await shown.evaluate('document.getElementById("main").scrollTo(0, 0)');
        await screenshot(shown, `settings-${width}-${theme}`);
        await shown.evaluate('document.getElementById("main").scrollTo(0, 1e6)');
        await checkPage(shown, `settings-${width}-${theme}-end`);
        await context.close();
      }
    }, 120_000);
  }
});
