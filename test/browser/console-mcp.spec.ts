import type { Page } from 'playwright-core';
import { browserContext, checkPage, type ConsoleApp, signIn } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { TestMcpServer } from '../support/mcp/mcp-test-server';
import { auth } from '../support/runs/run-helpers';
import type { TestUser } from '../support/test-app';

const SECRET = 'Bearer s3cret-9a8b7c6d5e4f';

describe('console: MCP servers (admin)', () => {
  // The test MCP servers listen on 127.0.0.1, a private address the service refuses unless allowed.
  const suite = consoleSuite({ environment: () => ({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' }) });
  let app: ConsoleApp, user: TestUser, page: Page;
  let admin: TestUser;
  let mcp: TestMcpServer;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    admin = await suite.app.ctx.newUser({ role: 'admin' });
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [
        {
          name: 'lookup',
          description: 'Looks a word up.',
          annotations: { title: 'Look up', readOnlyHint: true, openWorldHint: false },
        },
        { name: 'write', description: 'Writes a note.', annotations: { destructiveHint: true } },
      ],
    });
    closers.push(() => mcp.close());
  });

  afterAll(async () => {
    for (const close of closers) await close();
  });

  beforeEach(() => ({ app, user, page } = suite));

  const record = async (slug: string) => app.ctx.http.get(`/api/system/mcp-servers/${slug}`).set(auth(admin));
  /** The Authorization values the test server was sent since `from` (an index into `received`). */
  const authorizations = (from: number) =>
    mcp.received.slice(from).flatMap((message) => message.headers.authorization ?? []);

  it('adds a server, tests it, shows its tools with their hints, and switches a tool off', async () => {
    await signIn(page, admin);
    await page.getByRole('link', { name: 'MCP servers' }).click();
    await page.getByRole('heading', { name: 'MCP servers', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.getByRole('textbox', { name: 'Slug' }).fill('local-tools');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Local tools');
    await page.getByRole('textbox', { name: 'URL' }).fill(mcp.url);
    await page.getByRole('textbox', { name: 'Tags (comma-separated)' }).fill('local, test');
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByRole('textbox', { name: 'Header name 1' }).fill('Authorization');
    await page.getByRole('textbox', { name: 'Header value 1' }).fill(SECRET);
    await page.getByRole('button', { name: 'Add server' }).click();

    await page.waitForURL((url) => url.pathname === '/mcp-servers/local-tools');
    await page.getByRole('heading', { name: 'Local tools', level: 1 }).waitFor();
    await page.getByText('MCP server local-tools added.').waitFor();
    const created = await record('local-tools');
    expect(created.body).toMatchObject({
      name: 'Local tools',
      transport: 'streamable_http',
      url: mcp.url,
      tags: ['local', 'test'],
      enabled: true,
      source: 'custom',
    });
    expect(Object.keys(created.body.headers)).toEqual(['Authorization']);
    expect(created.body.headers.Authorization).not.toContain('s3cret');

    // The tools, asked of the server, with the hints it gave.
    const lookup = page.locator('[data-tool="lookup"]');
    await lookup.waitFor();
    expect(await lookup.locator('[data-hint]').allInnerTexts()).toEqual(['Read-only', 'Closed world']);
    await lookup.getByText('Title: Look up').waitFor();
    await lookup.getByText('Looks a word up.').waitFor();
    expect(await page.locator('[data-tool="write"] [data-hint]').allInnerTexts()).toEqual(['Destructive']);

    const before = mcp.received.length;
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.locator('[data-test-result="ok"]');
    await result.getByText(/Connected in \d+ ms\. Tools listed: 2\./).waitFor();
    expect(await result.locator('code').allInnerTexts()).toEqual(['lookup', 'write']);
    // The test really connected, with the header typed in the form.
    expect(authorizations(before)).toContain(SECRET);

    await page.getByRole('switch', { name: 'Tool enabled: write' }).click();
    await page.locator('[data-tool="write"] [role=switch][aria-checked="false"]').waitFor();
    const tools = await app.ctx.http.get('/api/system/mcp-servers/local-tools/tools').set(auth(admin));
    expect(
      tools.body.items.map((tool: { name: string; enabled: boolean }) => [tool.name, tool.enabled]),
    ).toEqual([
      ['lookup', true],
      ['write', false],
    ]);

    // The list shows the server with its switch; switching it off is stored.
    await page.getByRole('link', { name: 'All MCP servers' }).click();
    const row = page.locator('[data-server="local-tools"]');
    await row.getByText(mcp.url).waitFor();
    await row.getByText('local', { exact: true }).waitFor();
    await page.getByRole('switch', { name: 'Enabled: local-tools' }).click();
    await row.locator('[role=switch][aria-checked="false"]').waitFor();
    expect((await record('local-tools')).body.enabled).toBe(false);
  });

  it('edits a server sending only what changed; a header left redacted keeps its stored value', async () => {
    await app.ctx.newMcpServer(admin, {
      slug: 'keeper',
      name: 'Keeper',
      url: mcp.url,
      headers: { Authorization: SECRET },
    });
    const shown = (await record('keeper')).body.headers.Authorization as string;
    await signIn(page, admin, '/mcp-servers/keeper');
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByRole('textbox', { name: 'Header value 1' }).inputValue()).toBe(shown);
    await page.getByText('Stored value kept').waitFor();

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Keeper renamed');
    const patch = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await patch).postDataJSON()).toEqual({ name: 'Keeper renamed' });
    await page.getByRole('heading', { name: 'Keeper renamed', level: 1 }).waitFor();
    await page.getByText('Changes saved.').waitFor();

    // A second header: the map is sent whole, the kept one in its redacted form.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByRole('textbox', { name: 'Header name 2' }).fill('X-Team');
    await page.getByRole('textbox', { name: 'Header value 2' }).fill('team-alpha-1');
    const second = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await second).postDataJSON()).toEqual({
      headers: { Authorization: shown, 'X-Team': 'team-alpha-1' },
    });
    await page.getByText('Changes saved.').waitFor();

    // What the server is sent shows the stored secret was kept.
    const before = mcp.received.length;
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.locator('[data-test-result="ok"]').waitFor();
    expect(authorizations(before)).toContain(SECRET);
    expect(mcp.received.slice(before).map((message) => message.headers['x-team'])).toContain('team-alpha-1');

    // Another origin: the form says the stored headers go unless typed again.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'URL' }).fill(mcp.url.replace('127.0.0.1', 'localhost'));
    await page
      .getByText(
        'The URL origin or the transport changes: the stored headers Authorization, X-Team are dropped unless you type their values again.',
      )
      .waitFor();
    expect(await page.getByText('Dropped unless retyped').count()).toBe(2);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await record('keeper')).body).toMatchObject({ url: mcp.url, name: 'Keeper renamed' });
  });

  it('shows the real failure of a test, and the reason instead of tools when the server is down', async () => {
    const gone = await TestMcpServer.start({ transport: 'streamable_http', tools: [{ name: 'x' }] });
    await app.ctx.newMcpServer(admin, { slug: 'gone', url: gone.url });
    await gone.close();
    const failure = await app.ctx.http.post('/api/system/mcp-servers/gone/test').set(auth(admin));
    expect(failure.body.ok).toBe(false);

    await signIn(page, admin, '/mcp-servers/gone');
    const unavailable = page.locator('[data-tools="unavailable"]');
    await unavailable.getByText('The MCP server "gone" is unavailable.', { exact: false }).waitFor();
    expect(await unavailable.innerText()).toContain(failure.body.error.code);
    expect(await page.locator('[data-tool]').count()).toBe(0);

    await page.getByRole('button', { name: 'Test connection' }).click();
    const failed = page.locator('[data-test-result="failed"]');
    await failed.getByText(`The test failed: ${failure.body.error.code}`).waitFor();
    expect(await failed.getAttribute('role')).toBe('alert');
  });

  it("shows the service's refusal of an add and keeps what was typed", async () => {
    await app.ctx.newMcpServer(admin, { slug: 'taken', url: mcp.url });
    await signIn(page, admin, '/mcp-servers');
    await page.getByRole('button', { name: 'Add server' }).click();
    const slug = page.getByRole('textbox', { name: 'Slug' });
    await slug.fill('taken');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Second');
    await page.getByRole('textbox', { name: 'URL' }).fill(mcp.url);
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.getByRole('alert').filter({ hasText: 'An MCP server "taken" already exists.' }).waitFor();
    expect(await slug.inputValue()).toBe('taken');
    expect((await record('taken')).body.name).toBe('taken');

    await slug.fill('metadata');
    await page.getByRole('textbox', { name: 'URL' }).fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.getByRole('alert').filter({ hasText: 'is not allowed' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'URL' }).inputValue()).toBe(
      'http://169.254.169.254/latest/meta-data',
    );
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('Second');
    expect((await record('metadata')).status).toBe(404);
    expect(page.url()).toMatch(/\/mcp-servers$/);
  });

  it('lets a builtin server be switched on and off, never edited or deleted', async () => {
    await signIn(page, admin, '/mcp-servers');
    const row = page.locator('[data-server="deepwiki-official"]');
    await row.getByText('Builtin', { exact: true }).waitFor();
    await page.getByRole('switch', { name: 'Enabled: deepwiki-official' }).click();
    await row.locator('[role=switch][aria-checked="true"]').waitFor();
    expect((await record('deepwiki-official')).body.enabled).toBe(true);
    await page.getByRole('switch', { name: 'Enabled: deepwiki-official' }).click();
    await row.locator('[role=switch][aria-checked="false"]').waitFor();
    expect((await record('deepwiki-official')).body.enabled).toBe(false);

    await row.getByRole('link', { name: 'DeepWiki' }).click();
    await page.getByRole('heading', { name: 'DeepWiki', level: 1 }).waitFor();
    await page.getByText('it cannot be edited or deleted', { exact: false }).waitFor();
    await page.getByRole('switch', { name: 'Enabled: deepwiki-official' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
  });

  it('deletes a server after saying its agents lose its tools', async () => {
    await app.ctx.newMcpServer(admin, { slug: 'doomed', name: 'Doomed', url: mcp.url });
    await signIn(page, admin, '/mcp-servers/doomed');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('every agent that uses it loses its tools', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/mcp-servers');
    expect((await record('doomed')).status).toBe(404);
    expect(await page.locator('[data-server="doomed"]').count()).toBe(0);
  });

  it('never shows a normal user the page; a deep link says "not allowed"', async () => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await signIn(page, user);
    expect(await page.getByRole('link', { name: 'MCP servers' }).count()).toBe(0);
    await page.goto('/mcp-servers');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await page.goto('/mcp-servers/knowledge');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(asked.filter((path) => path.startsWith('/api/system/mcp-servers'))).toEqual([]);
    // The server decides too.
    const direct = await app.ctx.http.get('/api/system/mcp-servers/knowledge').set(auth(user));
    expect(direct.status).toBe(403);
  });

  for (const dark of [false, true]) {
    const theme = dark ? 'dark' : 'light';
    it(`the MCP server list, form and server page at every width in the ${theme} theme`, async () => {
      const slug = `shown-${theme}`;
      await app.ctx.newMcpServer(admin, {
        slug,
        name: `Shown ${theme}`,
        url: mcp.url,
        description: 'A local test server.',
        tags: ['local'],
        headers: { Authorization: SECRET },
      });
      for (const width of [375, 768, 1280, 1920]) {
        const context = await browserContext(app, { width, dark });
        const shown = await context.newPage();
        await signIn(shown, admin, '/mcp-servers');
        await shown.locator(`[data-server="${slug}"]`).waitFor();
        // The admin's longer navigation still fits (icons only when the labels do not).
        const nav = `(() => { const nav = document.querySelector('nav'); return nav.scrollWidth <= nav.clientWidth; })()`;
        if (width >= 768)
          expect({ width, fits: await shown.evaluate<boolean>(nav) }).toEqual({ width, fits: true });
        await shown.getByRole('button', { name: 'Add server' }).click();
        await shown.getByRole('button', { name: 'Add header' }).click();
        await checkPage(shown, `mcp-servers-${width}-${theme}`);
        await shown.goto(`/mcp-servers/${slug}`);
        await shown.locator('[data-tool="lookup"]').waitFor();
        await shown.getByRole('button', { name: 'Test connection' }).click();
        await shown.locator('[data-test-result="ok"]').waitFor();
        await checkPage(shown, `mcp-server-${width}-${theme}`);
        await shown.locator('[data-tool="write"]').scrollIntoViewIfNeeded();
        await checkPage(shown, `mcp-server-tools-${width}-${theme}`);
        await shown.getByRole('button', { name: 'Edit' }).click();
        await checkPage(shown, `mcp-server-edit-${width}-${theme}`);
        await context.close();
      }
    }, 120_000);
  }
});
