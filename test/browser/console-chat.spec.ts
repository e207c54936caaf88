import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Page } from 'playwright-core';
import { ChatPage } from '../support/browser/chat-page';
import { browserContext, signIn, type ConsoleApp } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import type { TestUser } from '../support/test-app';

describe('console chat in a browser', () => {
  const suite = consoleSuite({ allowPageErrors: true });
  let app: ConsoleApp, user: TestUser, page: Page, errors: string[];
  const afterThis: (() => void)[] = [];
  beforeEach(() => ({ app, user, page, errors } = suite));
  afterEach(() => afterThis.splice(0).forEach((undo) => undo()));

  const pickAgent = (name: string) => new ChatPage(page).pickAgent(name);
  const send = (text: string) => new ChatPage(page).send(text);

  /** The server side of every run event stream the browser opens, in order. */
  function eventStreams(): { headers: Record<string, unknown>; socket: Socket }[] {
    const seen: { headers: Record<string, unknown>; socket: Socket }[] = [];
    const server = app.ctx.app.getHttpServer();
    const onRequest = (req: IncomingMessage) => {
      if (/\/api\/runs\/[^/]+\/events/.test(req.url ?? ''))
        seen.push({ headers: req.headers, socket: req.socket });
    };
    server.on('request', onRequest);
    afterThis.push(() => server.off('request', onRequest));
    return seen;
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
    // The fake model reports 11 prompt and 7 completion tokens per call: two calls.
    await page.getByText('22 in · 14 out tokens').waitFor();
    await page.getByText('This conversation: 36 tokens in 2 model calls').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Nothing of the user is left in the tab's storage (vue-router keeps its scroll positions there).
    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['vue-router:scroll']);
    // The next user of this tab sees nothing of the first one.
    const next = await app.ctx.newUser();
    await signIn(page, next);
    await page.getByText('No conversations yet.', { exact: false }).waitFor();
    expect(await page.getByRole('link', { name: 'What is in my folder?' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  /** A run whose second model call is held: the test acts while the run is half done. */
  async function halfDoneRun(agentName: string): Promise<{ release: () => void }> {
    await app.ctx.newAgent(user, { name: agentName, config: { tools: ['write_file'] } });
    app.fake.script(
      {
        text: 'Part one.',
        toolCalls: [{ id: 'call_half', name: 'write_file', args: { file_path: 'half.md', content: 'x' } }],
      },
      { text: 'Part two.' },
    );
    const held = app.fake.holdRequest(app.fake.requests.length + 2);
    await signIn(page, user);
    await pickAgent(agentName);
    await send('Go in two parts');
    await held.arrived;
    await page.getByText('Part one.').waitFor();
    await new ChatPage(page).toolCard('call_half').getByText('Done').waitFor();
    return held;
  }

  async function expectEachOnce(): Promise<void> {
    await page.getByText('Part two.').waitFor();
    expect(await page.getByText('Part one.').count()).toBe(1);
    expect(await page.getByText('Part two.').count()).toBe(1);
    expect(await page.locator('[data-tool-call-id="call_half"]').count()).toBe(1);
  }

  it('resumes after a reload mid-run from where it was, showing nothing twice', async () => {
    const streams = eventStreams();
    const held = await halfDoneRun('Reloader');
    await page.reload();
    await page.getByText('Part one.').waitFor();
    expect(streams.length).toBe(2);
    // The reloaded page showed what it had kept and asked only for what came after it.
    expect(Number(streams[1].headers['last-event-id'])).toBeGreaterThan(3);
    held.release();
    await expectEachOnce();
    expect(errors).toEqual([]);
  });

  it('reconnects after the connection drops mid-run, with Last-Event-ID, showing nothing twice', async () => {
    const streams = eventStreams();
    const held = await halfDoneRun('Dropper');
    expect(streams.length).toBe(1);
    streams[0].socket.destroy();
    await page.waitForFunction(() => true);
    held.release();
    await expectEachOnce();
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(Number(streams[1].headers['last-event-id'])).toBeGreaterThan(3);
  });

  it('sends with Enter and starts a new line with Shift+Enter', async () => {
    await app.ctx.newAgent(user, { name: 'Typist' });
    app.fake.script({ text: 'Two lines received.' });
    await signIn(page, user);
    await pickAgent('Typist');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await page.keyboard.type('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    expect(await box.inputValue()).toBe('line one\nline two');
    await page.keyboard.press('Enter');
    await page.getByText('Two lines received.').waitFor();
    expect(await box.inputValue()).toBe('');
    const sent = app.fake.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === 'user')
      .at(-1);
    expect(sent?.content).toBe('line one\nline two');
  });

  it('speaks Simplified Chinese to a browser that asks for it', async () => {
    const zh = await browserContext(app, { locale: 'zh-CN' });
    const zhPage = await zh.newPage();
    await zhPage.goto('/sign-in');
    await zhPage.getByRole('button', { name: '登录' }).waitFor();
    expect(await zhPage.getAttribute('html', 'lang')).toBe('zh-CN');
    await zhPage.getByLabel('用户名').fill(user.username);
    await zhPage.getByLabel('密码').fill(user.password);
    await zhPage.getByRole('button', { name: '登录' }).click();
    await zhPage.getByRole('button', { name: '发送' }).waitFor();
    // The user switches to English: the choice is kept for the next visit.
    await zhPage.getByRole('combobox', { name: '语言' }).selectOption('en');
    await zhPage.getByRole('button', { name: 'Send' }).waitFor();
    await zhPage.reload();
    await zhPage.getByRole('button', { name: 'Send' }).waitFor();
    await zh.close();
  });

  it('renders hostile model output without running any of it', async () => {
    await app.ctx.newAgent(user, { name: 'Hostile' });
    const hostile = [
      'Look: <img src="x" onerror="window.__pwned = 1">',
      '[click me](javascript:window.__pwned=2)',
      '<svg><script>window.__pwned = 3</script><circle onload="window.__pwned = 4"/></svg>',
      '<a href="JaVaScRiPt:window.__pwned=5">second</a>',
      '<iframe src="javascript:window.top.__pwned=6"></iframe>',
      '<form action="/api/auth/token"><button>go</button></form>',
      '```html:preview\n<h1>Preview heading</h1><script>window.top.__pwned = 7; document.title = "ran"</script>\n```',
      'The end.',
    ].join('\n\n');
    app.fake.script({ text: hostile });
    await signIn(page, user);
    await pickAgent('Hostile');
    await send('Say something');
    await page.getByText('The end.').waitFor();
    await page
      .getByText('click me')
      .click()
      .catch(() => undefined);
    // The html:preview block is shown sanitized (its script removed) in a frame with an empty sandbox.
    const frame = page.locator('.assistant-bubble iframe');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const preview = page.frameLocator('.assistant-bubble iframe');
    await preview.getByRole('heading', { name: 'Preview heading' }).waitFor();
    expect(await preview.locator('script').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    const bubble = page.locator('.assistant-bubble').last();
    expect(
      await bubble
        .locator('[onerror], [onload], script, iframe[src], iframe:not([sandbox=""]), form')
        .count(),
    ).toBe(0);
    for (const href of await bubble
      .locator('a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
      expect(String(href)).not.toMatch(/^\s*javascript:/i);
    // Chromium reports the CSP's refusal of inline handlers even while DOMPurify parses the markup in an
    // inert document: nothing ran (asserted above); any other error fails the test.
    expect(errors.filter((error) => !error.includes('Executing inline event handler violates'))).toEqual([]);
  });
});

async function expectText(locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  expect(await locator.first().innerText()).toBe(text);
}
