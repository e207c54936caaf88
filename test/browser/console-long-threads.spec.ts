import type { Page } from 'playwright-core';
import { SUMMARY_PROMPT_MARKER } from '../../src/modules/agent-runtime/context/summarizer';
import { ChatPage } from '../support/browser/chat-page';
import { signIn, type ConsoleApp } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { isTerminal, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import type { TestUser } from '../support/test-app';

/** About 3 characters per estimated token: `tokens` of a user's turn. */
const turnOf = (tokens: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil((tokens * 3) / 27));

describe('console: a long conversation compressed', () => {
  // A 12,000-token window: compression starts above 9,600.
  const suite = consoleSuite({ environment: () => ({ MODEL_CONTEXT_TOKENS_FAKE_MODEL: '12000' }) });
  let app: ConsoleApp, user: TestUser, page: Page, chat: ChatPage;
  beforeEach(() => ({ app, user, page, chat } = suite));

  it('tells the user that older turns were summarized to fit the model', async () => {
    const { slug } = await app.ctx.newAgent(user, { config: { tools: [] } });
    const threadId = await newThread(app.ctx, user, slug);
    app.fake.route((body) =>
      body.messages.some((m) => m.role === 'system' && String(m.content).startsWith(SUMMARY_PROMPT_MARKER))
        ? { text: 'SUMMARY: the user sent filler text.' }
        : { text: 'Noted.' },
    );
    const first = await startRun(app.ctx, user, threadId, { input: turnOf(6000) });
    expect(await waitForStatus(app.ctx, first.run_id, isTerminal)).toBe('completed');

    await signIn(page, user, `/chat/${threadId}`);
    await chat.send(turnOf(4500));
    await page.getByText('Older turns were summarized to fit the model', { exact: false }).waitFor();
    const notice = await page.getByText('Older turns were summarized', { exact: false }).innerText();
    const [before, after] = /\((\d+) → (\d+) tokens\)/.exec(notice)!.slice(1).map(Number);
    expect(after).toBeLessThan(before);
    await page.getByText('Noted.').nth(1).waitFor();
  });
});
