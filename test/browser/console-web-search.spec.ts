import type { Page } from 'playwright-core';
import { ChatPage } from '../support/browser/chat-page';
import { signIn, type ConsoleApp } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { startFakeTavily, type FakeVendor } from '../support/web-search/fake-vendors';
import { TAVILY_RESULTS } from '../support/web-search/fixtures';
import type { TestUser } from '../support/test-app';

/** `web_search` results as the user sees them: sources, "no results found", or the failure. */
describe('console: web search results', () => {
  const KEY = 'tvly-console-test';
  const results: Record<string, unknown>[] = [];
  let tavily: FakeVendor;
  beforeAll(async () => {
    tavily = await startFakeTavily(KEY, { results, pages: {} });
  });
  afterAll(() => tavily.close());

  const suite = consoleSuite({
    environment: () => ({
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      TAVILY_API_KEY: KEY,
      TAVILY_BASE_URL: tavily.baseUrl,
    }),
  });
  let app: ConsoleApp, user: TestUser, page: Page, chat: ChatPage;
  beforeAll(() =>
    suite.app.ctx.newAgent(suite.user, { name: 'Searcher', config: { tools: ['web_search'] } }),
  );
  beforeEach(() => {
    ({ app, user, page, chat } = suite);
    tavily.reset();
    results.splice(0);
  });

  async function search(callId: string): Promise<ReturnType<ChatPage['toolCard']>> {
    app.fake.script(
      { toolCalls: [{ id: callId, name: 'web_search', args: { query: 'release 4.0' } }] },
      { text: `Search ${callId} seen.` },
    );
    await signIn(page, user);
    await chat.pickAgent('Searcher');
    await chat.send('Look it up');
    await chat.waitForAnswer(`Search ${callId} seen.`);
    return chat.toolCard(callId);
  }

  it('lists the sources found, each a link to its page', async () => {
    results.push(...TAVILY_RESULTS);
    const card = await search('call_found');
    const sources = card.getByRole('list', { name: 'Sources' }).getByRole('link');
    expect(await sources.allInnerTexts()).toEqual(['Release notes 4.0', 'News: 4.0 ships']);
    expect(await sources.first().getAttribute('href')).toBe('https://example.com/notes');
    expect(await sources.first().getAttribute('rel')).toContain('noopener');
  });

  it('says "no results found" for an empty result', async () => {
    const card = await search('call_empty');
    await card.getByText('No results found.').waitFor();
  });

  it('shows a failed search as a failure with its code', async () => {
    tavily.failWith(500, { detail: { error: 'internal' } });
    const card = await search('call_failed');
    expect(await card.getByRole('button').innerText()).toMatch(/Failed ·\s+web_search\.vendor_failed/);
    expect(await card.getByText('tavily failed (HTTP 500)', { exact: false }).count()).toBe(1);
    expect(await card.getByRole('list', { name: 'Sources' }).count()).toBe(0);
  });
});
