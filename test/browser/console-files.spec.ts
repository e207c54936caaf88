import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { ChatPage } from '../support/browser/chat-page';
import { signIn, type ConsoleApp } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { auth, newThread, waitForStatus } from '../support/runs/run-helpers';
import { workdirFile } from '../support/runs/workdir-files';
import type { TestUser } from '../support/test-app';

describe('console: conversations, files, uploads and cancelling', () => {
  const suite = consoleSuite();
  let app: ConsoleApp, user: TestUser, page: Page, chat: ChatPage, errors: string[];
  beforeEach(() => ({ app, user, page, chat, errors } = suite));

  it('lists a presented file, previews it and downloads exactly its bytes', async () => {
    const { slug } = await app.ctx.newAgent(user, { config: { tools: ['write_file', 'present_artifacts'] } });
    const threadId = await newThread(app.ctx, user, slug);
    const report = '# Quarterly report\n\nRevenue went **up**.\n';
    app.fake.script(
      {
        toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'report.md', content: report } }],
      },
      {
        toolCalls: [
          {
            id: 'call_p',
            name: 'present_artifacts',
            args: { filepaths: [`/home/gem/user-data/workdir/t-${threadId}/report.md`] },
          },
        ],
      },
      { text: 'Here is the report.' },
    );
    await signIn(page, user, `/chat/${threadId}`);
    await chat.send('Write the report');
    await chat.waitForAnswer('Here is the report.');

    await page.getByRole('button', { name: 'Preview report.md' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Quarterly report' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download report.md' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.md');
    expect(await readFile(await download.path(), 'utf8')).toBe(report);

    // After a reload the file is still listed (read from the thread's artifacts).
    await page.reload();
    await page.getByRole('button', { name: 'Download report.md' }).waitFor();
  });

  it('previews an image and an HTML page, the page in a frame that runs nothing', async () => {
    const { slug } = await app.ctx.newAgent(user, { config: { tools: ['write_file', 'present_artifacts'] } });
    const threadId = await newThread(app.ctx, user, slug);
    // A 1×1 PNG, uploaded as a user would.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const uploaded = await app.ctx.http
      .post(`/api/threads/${threadId}/files`)
      .set(auth(user))
      .attach('file', png, 'dot.png');
    const page_ = '<h1>Status page</h1><script>window.top.__pwned = 1</script>';
    app.fake.script(
      {
        toolCalls: [{ id: 'call_h', name: 'write_file', args: { file_path: 'status.html', content: page_ } }],
      },
      {
        toolCalls: [
          {
            id: 'call_a',
            name: 'present_artifacts',
            args: {
              filepaths: [uploaded.body.path, `/home/gem/user-data/workdir/t-${threadId}/status.html`],
            },
          },
        ],
      },
      { text: 'Both files are ready.' },
    );
    await signIn(page, user, `/chat/${threadId}`);
    await chat.send('Show me the files');
    await chat.waitForAnswer('Both files are ready.');

    await page.getByRole('button', { name: 'Preview dot.png' }).click();
    const image = page.getByRole('dialog').getByRole('img', { name: 'dot.png' });
    await image.waitFor();
    // Decoded: a 1-pixel-wide image (a broken one has no width).
    await page.waitForFunction("document.querySelector('[role=dialog] img')?.naturalWidth === 1");
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Preview status.html' }).click();
    const frame = page.getByRole('dialog').locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('');
    await page.frameLocator('[role=dialog] iframe').getByRole('heading', { name: 'Status page' }).waitFor();
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    // The sandbox's refusal of the page's script is reported; it is the one error expected here.
    const refusal = errors.findIndex((error) => error.includes("the 'allow-scripts' permission is not set"));
    expect(refusal).toBeGreaterThanOrEqual(0);
    errors.splice(refusal, 1);
  });

  it('uploads a file into the folder of the conversation', async () => {
    const { slug } = await app.ctx.newAgent(user);
    const threadId = await newThread(app.ctx, user, slug);
    await signIn(page, user, `/chat/${threadId}`);
    // As a person does it: the Attach button (enabled once the conversation is loaded) opens the chooser.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Attach a file' }).click(),
    ]);
    await chooser.setFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('uploaded from the console'),
    });
    await page.getByText(`Uploaded /home/gem/user-data/workdir/t-${threadId}/notes.txt`).waitFor();
    expect(await readFile(workdirFile(app.ctx, user.id, threadId, 'notes.txt'), 'utf8')).toBe(
      'uploaded from the console',
    );
  });

  it('renames and deletes a conversation, and refuses to delete one whose run is going', async () => {
    const { slug } = await app.ctx.newAgent(user, { name: 'Renamer' });
    const created = await app.ctx.http
      .post('/api/threads')
      .set(auth(user))
      .send({ agent_slug: slug, title: 'Draft title' });
    const threadId = created.body.id as string;
    await signIn(page, user, `/chat/${threadId}`);
    await page.getByRole('button', { name: 'Rename: Draft title' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Budget 2027');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('link', { name: 'Budget 2027' }).waitFor();
    await page.getByRole('heading', { name: 'Budget 2027' }).waitFor();
    const renamed = await app.ctx.http.get(`/api/threads/${threadId}`).set(auth(user));
    expect(renamed.body.title).toBe('Budget 2027');

    // A run in progress: the service refuses the delete and the page says what to do.
    app.fake.script({ text: 'finally' });
    const held = app.fake.holdNext();
    await chat.send('Hold on');
    await held.arrived;
    await page.getByRole('button', { name: 'Delete: Budget 2027' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('This conversation has a run in progress: cancel it first.').waitFor();
    held.release();
    await chat.waitForAnswer('finally');
    await page.getByRole('button', { name: 'Cancel run' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Delete: Budget 2027' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('link', { name: 'Budget 2027' }).waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/chat');
    const gone = await app.ctx.http.get(`/api/threads/${threadId}`).set(auth(user));
    expect(gone.status).toBe(404);
  });

  it('cancels a running run from the page', async () => {
    const { slug } = await app.ctx.newAgent(user);
    const threadId = await newThread(app.ctx, user, slug);
    app.fake.script({ text: 'never shown' });
    const held = app.fake.holdNext();
    await signIn(page, user, `/chat/${threadId}`);
    await chat.send('Take your time');
    await held.arrived;
    await page.getByRole('button', { name: 'Cancel run' }).click();
    const state = await app.ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    const runId = (state.body.active_run?.id ?? null) as string | null;
    held.release();
    await page.getByRole('button', { name: 'Cancel run' }).waitFor({ state: 'detached' });
    if (runId) expect(await waitForStatus(app.ctx, runId, (s) => s === 'cancelled')).toBe('cancelled');
    const runs = await app.ctx.dataSource.query<{ status: string }[]>(
      'SELECT status FROM runs WHERE thread_id = $1',
      [threadId],
    );
    expect(runs.map((run) => run.status)).toEqual(['cancelled']);
    expect(await page.getByText('never shown').count()).toBe(0);
  });
});
