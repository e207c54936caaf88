import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { ChatPage } from '../support/browser/chat-page';
import { signIn, type ConsoleApp } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { auth, waitForStatus, isTerminal } from '../support/runs/run-helpers';
import { workdirFile } from '../support/runs/workdir-files';
import { SubagentScripts } from '../support/subagents/subagent-runtime';
import { call, parentTurns, toolMessages } from '../support/subagents/subagent-scripts';
import type { TestUser } from '../support/test-app';

describe('console: questions and tool approvals', () => {
  const suite = consoleSuite();
  let app: ConsoleApp, user: TestUser, page: Page, chat: ChatPage;
  beforeEach(() => ({ app, user, page, chat } = suite));

  async function latestRun(threadId: string): Promise<{ id: string; status: string }> {
    const state = await app.ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    return state.body.active_run;
  }

  function threadIdFromUrl(): string {
    return new URL(page.url()).pathname.split('/').pop()!;
  }

  it('shows the questions as a form and resumes the run with the answers', async () => {
    await app.ctx.newAgent(user, { name: 'Asker' });
    app.fake.script(
      {
        toolCalls: [
          {
            id: 'call_q',
            name: 'ask_user_question',
            args: {
              questions: [
                {
                  question_id: 'color',
                  question: 'Which colour?',
                  options: [
                    { label: 'Red', value: 'red' },
                    { label: 'Blue', value: 'blue' },
                  ],
                  allow_other: true,
                },
                {
                  question_id: 'sizes',
                  question: 'Which sizes?',
                  options: [
                    { label: 'Small', value: 's' },
                    { label: 'Large', value: 'l' },
                  ],
                  multi_select: true,
                },
                { question_id: 'note', question: 'Anything else?' },
              ],
            },
          },
        ],
      },
      { text: 'Thanks, noted.' },
    );
    await signIn(page, user);
    await chat.pickAgent('Asker');
    await chat.send('Help me pick');

    const form = page.locator('form.question-form');
    await form.getByText('Which colour?').waitFor();
    // Nothing answered yet: the form says so and sends nothing.
    await form.getByRole('button', { name: 'Submit answers' }).click();
    expect(await form.getByText('Answer this question.').count()).toBe(3);

    await form.getByRole('radio', { name: 'Other' }).check();
    await form.getByRole('textbox', { name: /Which colour\? — Your answer/ }).fill('Green');
    await form.getByRole('checkbox', { name: 'Small' }).check();
    await form.getByRole('checkbox', { name: 'Large' }).check();
    await form.getByRole('textbox', { name: 'Anything else?' }).fill('Soon please');
    await form.getByRole('button', { name: 'Submit answers' }).click();

    await chat.waitForAnswer('Thanks, noted.');
    expect(await form.count()).toBe(0);
    const point = await app.ctx.http
      .get(`/api/runs/${(await lastRunOf(threadIdFromUrl())).id}/waiting-point`)
      .set(auth(user));
    expect(point.body).toMatchObject({
      status: 'answered',
      answers: { color: 'Green', sizes: ['s', 'l'], note: 'Soon please' },
    });
  });

  it('approves one tool call and rejects another with a message, as the user decided', async () => {
    await app.ctx.newAgent(user, {
      name: 'Writer',
      config: {
        tools: ['write_file'],
        approval: { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] },
      },
    });
    app.fake.script(
      {
        toolCalls: [
          { id: 'call_ok', name: 'write_file', args: { file_path: 'yes.md', content: 'approved' } },
        ],
      },
      { text: 'Wrote yes.md.' },
      {
        toolCalls: [{ id: 'call_no', name: 'write_file', args: { file_path: 'no.md', content: 'rejected' } }],
      },
      { text: 'Understood, I did not write it.' },
    );
    await signIn(page, user);
    await chat.pickAgent('Writer');
    await chat.send('Write yes.md');

    const form = page.locator('form.approval-form');
    await form.getByText('write_file', { exact: true }).waitFor();
    await chat.toolCard('call_ok').getByText('Waiting for your decision').waitFor();
    const send = form.getByRole('button', { name: 'Send decisions' });
    expect(await send.isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Approve' }).click();
    await send.click();
    await chat.waitForAnswer('Wrote yes.md.');
    const threadId = threadIdFromUrl();
    expect(await readFile(workdirFile(app.ctx, user.id, threadId, 'yes.md'), 'utf8')).toBe('approved');

    await chat.send('Now write no.md');
    await form.getByText('"no.md"', { exact: false }).waitFor();
    await form.getByRole('button', { name: 'Reject' }).click();
    await form.getByRole('textbox', { name: 'Message to the agent (optional)' }).fill('Not that file');
    await form.getByRole('button', { name: 'Send decisions' }).click();
    await chat.waitForAnswer('Understood, I did not write it.');
    const card = chat.toolCard('call_no');
    expect(await card.innerText()).toContain('tools.rejected_by_user');
    await expect(readFile(workdirFile(app.ctx, user.id, threadId, 'no.md'))).rejects.toThrow();
    const lastRequest = app.fake.requests.at(-1)!.body.messages.find((m) => m.tool_call_id === 'call_no');
    expect(String(lastRequest?.content)).toContain('Not that file');
  });

  it('checks edited arguments before sending them, then runs the call with them', async () => {
    await app.ctx.newAgent(user, {
      name: 'Editor',
      config: {
        tools: ['write_file'],
        approval: { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] },
      },
    });
    app.fake.script(
      {
        toolCalls: [{ id: 'call_ed', name: 'write_file', args: { file_path: 'draft.md', content: 'first' } }],
      },
      { text: 'Wrote the edited file.' },
    );
    await signIn(page, user);
    await chat.pickAgent('Editor');
    await chat.send('Write a draft');
    const form = page.locator('form.approval-form');
    await form.getByRole('button', { name: 'Edit' }).click();
    const editor = form.getByRole('textbox', { name: 'Arguments (JSON)' });
    await editor.fill('{"file_path": "draft.md",');
    await form.getByText('This is not valid JSON').waitFor();
    expect(await form.getByRole('button', { name: 'Send decisions' }).isDisabled()).toBe(true);
    await editor.fill('{"content": "edited"}');
    await form.getByText('Missing required field "file_path".').waitFor();
    await editor.fill('{"file_path": "draft.md", "content": "edited"}');
    await form.getByRole('button', { name: 'Send decisions' }).click();
    await chat.waitForAnswer('Wrote the edited file.');
    expect(await readFile(workdirFile(app.ctx, user.id, threadIdFromUrl(), 'draft.md'), 'utf8')).toBe(
      'edited',
    );
  });

  it('shows a subagent live and takes the decision its run asks for', async () => {
    const ask = { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] };
    const child = await app.ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Careful writer', is_subagent: true, config: { tools: ['write_file'], approval: ask } });
    const childSlug = (child.body as { slug: string }).slug;
    await app.ctx.newAgent(user, { name: 'Delegator', config: { subagents: [childSlug] } });
    new SubagentScripts(app.fake)
      .on('write the memo', (body) =>
        toolMessages(body).length > 0
          ? { text: 'memo written' }
          : {
              toolCalls: [
                call('call_memo', 'write_file', { file_path: 'memo.md', content: 'from the child' }),
              ],
            },
      )
      .on(
        'Delegate the memo',
        parentTurns([
          () => ({
            toolCalls: [
              call('start', 'subagent_start', { description: 'write the memo', subagent_slug: childSlug }),
            ],
          }),
          (r) => ({ toolCalls: [call('wait', 'subagent_await', { run_id: r.get('start')!.run_id })] }),
          () => ({ text: 'The memo is ready.' }),
        ]),
      );
    await signIn(page, user);
    await chat.pickAgent('Delegator');
    await chat.send('Delegate the memo');

    const card = page.locator('.subagent');
    await card.getByText('Waiting for you').waitFor();
    const form = page.locator('form.approval-form');
    await form.getByText('memo.md', { exact: false }).waitFor();
    await form.getByRole('button', { name: 'Approve' }).click();
    await form.getByRole('button', { name: 'Send decisions' }).click();
    await chat.waitForAnswer('The memo is ready.');
    await card.getByText('Completed').waitFor();
    expect(await readFile(workdirFile(app.ctx, user.id, threadIdFromUrl(), 'memo.md'), 'utf8')).toBe(
      'from the child',
    );
  });

  async function lastRunOf(threadId: string): Promise<{ id: string }> {
    const active = await latestRun(threadId);
    if (active) {
      await waitForStatus(app.ctx, active.id, isTerminal);
      return active;
    }
    const messages = await app.ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    return { id: messages.body.items.at(-1).run_id };
  }
});
