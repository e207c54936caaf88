import type { Page } from 'playwright-core';
import { KnowledgeIndexingProcessor } from '../../src/modules/knowledge/indexing/knowledge-indexing.processor';
import { browserContext, checkPage, type ConsoleApp, signIn } from '../support/browser/console-browser';
import { consoleSuite } from '../support/browser/console-suite';
import { FakeEmbeddingsServer } from '../support/fake-embeddings';
import { queryKb, settledKbFile, uploadKbFile, type KbFile } from '../support/knowledge';
import { auth } from '../support/runs/run-helpers';
import type { TestUser } from '../support/test-app';

const KB_FILE_LIMIT = 64 * 1024;

const PETS = [
  '# Pets',
  'The feline slept all afternoon on the warm windowsill.',
  '# Garage',
  'The automobile needs new tyres before winter.',
  '# Payroll',
  'Compensation is paid on the last working day of each month.',
].join('\n\n');

const markdown = (name: string, text: string) => ({
  name,
  mimeType: 'text/markdown',
  buffer: Buffer.from(text),
});

describe('console: knowledge bases, their files and the query playground', () => {
  let embeddings: FakeEmbeddingsServer;
  beforeAll(async () => {
    embeddings = await FakeEmbeddingsServer.start();
  });
  afterAll(() => embeddings?.close());

  // The embeddings model makes the scores those of the hybrid ranking, as in production.
  const suite = consoleSuite({
    environment: () => ({
      OPENAI_BASE_URL: embeddings.baseUrl,
      EMBEDDINGS_MODEL: 'fake-embed',
      KB_FILE_LIMIT_BYTES: String(KB_FILE_LIMIT),
    }),
  });
  let app: ConsoleApp, user: TestUser, page: Page;
  let admin: TestUser;
  beforeAll(async () => {
    admin = await suite.app.ctx.newUser({ role: 'admin' });
  });
  beforeEach(() => ({ app, user, page } = suite));

  const fileRow = (shown: Page, filename: string, version = 1) =>
    shown.locator(`li[data-filename="${filename}"][data-version="${version}"]`);
  const indexing = () => app.ctx.app.get(KnowledgeIndexingProcessor).worker;
  const listKbs = async (who: TestUser) =>
    (await app.ctx.http.get('/api/knowledge-bases').set(auth(who))).body.items as {
      kb_id: string;
      name: string;
      description: string;
      share_config: unknown;
      permission: string;
    }[];

  it('lets an admin create a base, upload a document that reaches indexed live, and query it', async () => {
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Knowledge', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New knowledge base' }).click();
    // Without a name the page refuses before asking the service.
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByText('Give the knowledge base a name.').waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Office handbook');
    await page.getByRole('textbox', { name: 'Description (optional)' }).fill('Pets, cars and pay');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByText('Knowledge base Office handbook created.').waitFor();
    const created = (await listKbs(admin)).find((kb) => kb.name === 'Office handbook')!;
    expect(created).toMatchObject({
      description: 'Pets, cars and pay',
      share_config: { version: 2, read_scope: { level: 'global' }, manage_scope: null },
      permission: 'manage',
    });
    const listed = page.locator(`[data-kb-id="${created.kb_id}"]`);
    expect(await listed.innerText()).toContain('Read by: everyone');
    expect(await listed.innerText()).toContain('Managed by: its owner only');

    await listed.getByRole('link', { name: 'Office handbook' }).click();
    await page.waitForURL((url) => url.pathname === `/knowledge/${created.kb_id}`);
    await page.getByText('No files yet. Upload documents', { exact: false }).waitFor();

    // The queue held: the row shows "Pending", then moves on by itself once the worker runs.
    await indexing().pause();
    try {
      await page.getByLabel('Upload files').setInputFiles(markdown('pets.md', PETS));
      await fileRow(page, 'pets.md').getByText('Pending', { exact: true }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Files still being processed: 1' }).waitFor();
    } finally {
      await indexing().resume();
    }
    const row = fileRow(page, 'pets.md');
    await row.getByText('Indexed', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('status').filter({ hasText: 'Every file is processed.' }).waitFor();
    const [stored] = await app.ctx.dataSource.query<{ id: string; status: string; chunk_count: number }[]>(
      `SELECT id, status, chunk_count FROM knowledge_files WHERE kb_id = $1`,
      [created.kb_id],
    );
    expect(stored.status).toBe('indexed');
    expect(await row.innerText()).toContain(`Chunks: ${stored.chunk_count}`);

    // "cat" is in no passage: the feline one is found by its meaning, ranked with its score.
    await page.getByRole('textbox', { name: 'Query' }).fill('cat');
    await page.getByLabel('Results (top k)').fill('3');
    await page.getByRole('button', { name: 'Search' }).click();
    const hits = page.locator('li[data-rank]');
    await hits.first().waitFor();
    const api = await queryKb(app.ctx, admin, created.kb_id, { query: 'cat', top_k: 3 });
    expect(api.length).toBeGreaterThan(0);
    expect(api[0].content).toContain('feline');
    expect(await hits.count()).toBe(api.length);
    for (const [index, hit] of api.entries()) {
      const shown = hits.nth(index);
      expect(await shown.getAttribute('data-chunk-index')).toBe(String(hit.chunk_index));
      const text = await shown.innerText();
      expect(text).toContain(`#${index + 1}`);
      expect(text).toContain(hit.filename);
      expect(text).toContain(`Chunk ${hit.chunk_index}`);
      expect(text).toContain(`Score ${hit.score.toFixed(4)}`);
      expect(text).toContain(hit.content.trim());
    }
    const scores = api.map((hit) => hit.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    // The same name again is a new version: it says what it replaces, then the old one is gone.
    await indexing().pause();
    try {
      await page.getByLabel('Upload files').setInputFiles(markdown('pets.md', '# Pets\n\nThe kitten naps.'));
      await fileRow(page, 'pets.md', 2).getByText('Replaces version 1 once indexed').waitFor();
      await fileRow(page, 'pets.md', 1).getByText('In use until version 2 is indexed').waitFor();
    } finally {
      await indexing().resume();
    }
    await fileRow(page, 'pets.md', 2).getByText('Indexed', { exact: true }).waitFor({ timeout: 20_000 });
    await fileRow(page, 'pets.md', 1).waitFor({ state: 'detached' });
    const versions = await app.ctx.dataSource.query<{ version: number; status: string }[]>(
      `SELECT version, status FROM knowledge_files WHERE kb_id = $1`,
      [created.kb_id],
    );
    expect(versions).toEqual([{ version: 2, status: 'indexed' }]);
  }, 90_000);

  it('shows a refused upload with the service message and keeps the list; a failed parse shows its error', async () => {
    const kbId = await app.ctx.newKb(admin, { name: 'Refusals' });
    const kept = await uploadKbFile(app.ctx, admin, kbId, 'kept.md', '# Kept\n\nBadges at reception.');
    await settledKbFile(app.ctx, admin, kbId, kept.file_id);
    await signIn(page, admin, `/knowledge/${kbId}`);
    await fileRow(page, 'kept.md').getByText('Indexed', { exact: true }).waitFor();

    // One pick of two files: the good one is taken, the other refused with the service's words.
    await page
      .getByLabel('Upload files')
      .setInputFiles([markdown('notes.md', 'Parking permits renew in March.'), markdown('tool.exe', 'MZ')]);
    const refusal = page.getByRole('alert').filter({ hasText: 'tool.exe was not uploaded' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('"tool.exe" is not a supported document (md, markdown, txt');
    await fileRow(page, 'notes.md').getByText('Indexed', { exact: true }).waitFor({ timeout: 20_000 });

    await page.getByLabel('Upload files').setInputFiles({
      name: 'big.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(KB_FILE_LIMIT + 1, 'a'),
    });
    await page
      .getByRole('alert')
      .filter({ hasText: 'big.txt was not uploaded: The request body is too large.' })
      .waitFor();
    // The list is as it was: nothing lost, nothing half-added.
    expect(await page.locator('li[data-file-id]').count()).toBe(2);
    expect(await fileRow(page, 'kept.md').count()).toBe(1);
    const names = await app.ctx.dataSource.query<{ filename: string }[]>(
      `SELECT filename FROM knowledge_files WHERE kb_id = $1 ORDER BY filename`,
      [kbId],
    );
    expect(names.map((row) => row.filename)).toEqual(['kept.md', 'notes.md']);

    // A document the parser cannot read: "Failed", with the stored error.
    await page.getByLabel('Upload files').setInputFiles({
      name: 'broken.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('this is not a pdf'),
    });
    const broken = fileRow(page, 'broken.pdf');
    await broken.getByText('Failed', { exact: true }).waitFor({ timeout: 20_000 });
    const fileId = (await broken.getAttribute('data-file-id'))!;
    const failed = (await app.ctx.http.get(`/api/knowledge-bases/${kbId}/files/${fileId}`).set(auth(admin)))
      .body as KbFile;
    expect(failed.status).toBe('failed');
    expect(failed.error).not.toBeNull();
    expect(await broken.innerText()).toContain(failed.error!.message);
    expect(await broken.innerText()).toContain(failed.error!.code);

    await broken.getByRole('button', { name: 'Delete file: broken.pdf, Version 1' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete file' }).click();
    await broken.waitFor({ state: 'detached' });
    const left = await app.ctx.dataSource.query<unknown[]>(`SELECT 1 FROM knowledge_files WHERE id = $1`, [
      fileId,
    ]);
    expect(left).toEqual([]);
  }, 60_000);

  it('never offers a normal user creation or the management of a base shared to them read-only', async () => {
    const kbId = await app.ctx.newKb(admin, { name: 'Shared read-only' });
    const doc = await uploadKbFile(
      app.ctx,
      admin,
      kbId,
      'policy.md',
      '# Policy\n\nThe office opens at eight.',
    );
    await settledKbFile(app.ctx, admin, kbId, doc.file_id);
    const hiddenId = await app.ctx.newKb(admin, {
      name: 'Admins only',
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [admin.id] } },
    });

    await signIn(page, user);
    await page.getByRole('link', { name: 'Knowledge' }).click();
    const row = page.locator(`[data-kb-id="${kbId}"]`);
    await row.waitFor();
    expect(await row.getByText('Read only', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'New knowledge base' }).count()).toBe(0);
    expect(await page.locator(`[data-kb-id="${hiddenId}"]`).count()).toBe(0);

    await row.getByRole('link', { name: 'Shared read-only' }).click();
    await fileRow(page, 'policy.md').getByText('Indexed', { exact: true }).waitFor();
    await page.getByText('only its managers change it', { exact: false }).waitFor();
    for (const name of ['Upload files', 'Edit settings', 'Delete knowledge base'])
      expect(await page.getByText(name, { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete file/ }).count()).toBe(0);
    // Reading is theirs: the playground answers.
    await page.getByRole('textbox', { name: 'Query' }).fill('office opens');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('li[data-rank="1"]').filter({ hasText: 'policy.md' }).waitFor();

    // The service decides too.
    const upload = await app.ctx.http
      .post(`/api/knowledge-bases/${kbId}/files`)
      .set(auth(user))
      .attach('file', Buffer.from('x'), 'x.md');
    expect(upload.status).toBe(403);
    expect(upload.body.code).toBe('knowledge.manage_forbidden');
    const create = await app.ctx.http.post('/api/knowledge-bases').set(auth(user)).send({ name: 'Mine' });
    expect(create.status).toBe(403);

    // A base they may not read: its address shows the service's answer, nothing of the base.
    await page.goto(`/knowledge/${hiddenId}`);
    await page
      .getByRole('alert')
      .filter({ hasText: `No knowledge base "${hiddenId}".` })
      .waitFor();
    expect(await page.getByText('Admins only').count()).toBe(0);
  });

  /** Finds a person in the user directory by name and adds them to a scope. */
  async function addByName(shown: Page, scope: string, username: string): Promise<void> {
    const find = shown.getByRole('textbox', { name: `${scope}: Find a user by name` });
    await find.fill(username);
    await find.press('Enter');
    await shown
      .getByRole('group', { name: scope, exact: true })
      .getByRole('button', { name: `Add ${username}` })
      .click();
  }

  it('edits sharing, shows the service refusal without losing the choice, and makes a user a manager', async () => {
    const kbId = await app.ctx.newKb(admin, { name: 'Team notes' });
    await signIn(page, admin, `/knowledge/${kbId}`);
    await page.getByRole('button', { name: 'Edit settings' }).click();
    await page.getByRole('combobox', { name: 'Who can read' }).selectOption('users');
    await addByName(page, 'Who can read', user.username);
    await page.getByRole('combobox', { name: 'Who can manage' }).selectOption('global');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The manage scope must lie inside the read scope.' })
      .waitFor();
    // The choice is still there to fix.
    expect(await page.getByRole('combobox', { name: 'Who can read' }).inputValue()).toBe('users');
    expect(
      await page.getByRole('group', { name: 'Who can read: Users' }).getByLabel(user.username).isChecked(),
    ).toBe(true);
    await page.getByRole('combobox', { name: 'Who can manage' }).selectOption('users');
    await addByName(page, 'Who can manage', user.username);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await page.locator('.sharing').innerText()).toContain(`Read by: ${user.username}`);
    const kb = (await app.ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(admin))).body;
    expect(kb.share_config).toEqual({
      version: 2,
      read_scope: { level: 'users', user_ids: [user.id] },
      manage_scope: { level: 'users', user_ids: [user.id] },
    });

    // Now the user manages it: they upload, and may share only with named users.
    const userContext = await browserContext(app);
    const userPage = await userContext.newPage();
    await signIn(userPage, user, `/knowledge/${kbId}`);
    await userPage.getByText('You manage it', { exact: true }).waitFor();
    await userPage.getByLabel('Upload files').setInputFiles(markdown('mine.md', 'A note of mine.'));
    await fileRow(userPage, 'mine.md').getByText('Indexed', { exact: true }).waitFor({ timeout: 20_000 });
    await userPage.getByRole('button', { name: 'Edit settings' }).click();
    const readLevel = userPage.getByRole('combobox', { name: 'Who can read' });
    expect(await readLevel.locator('option[value="global"]').innerText()).toBe('Everyone (admins only)');
    expect(await readLevel.locator('option[value="global"]').isDisabled()).toBe(true);
    expect(await readLevel.locator('option[value="users"]').isDisabled()).toBe(false);
    await userPage.getByRole('textbox', { name: 'Description (optional)' }).fill('Shared notes');
    await userPage.getByRole('button', { name: 'Save changes' }).click();
    await userPage.getByText('Changes saved.').waitFor();
    const renamed = (await app.ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(admin))).body;
    expect(renamed.description).toBe('Shared notes');

    // Managing a base everyone reads: they may rename it; the level only admins choose stays as it is.
    const globalConfig = {
      version: 2,
      read_scope: { level: 'global' },
      manage_scope: { level: 'users', user_ids: [user.id] },
    };
    const globalId = await app.ctx.newKb(admin, { name: 'Company wiki', share_config: globalConfig });
    await userPage.goto(`/knowledge/${globalId}`);
    await userPage.getByRole('button', { name: 'Edit settings' }).click();
    expect(await userPage.getByRole('combobox', { name: 'Who can read' }).inputValue()).toBe('global');
    await userPage.getByRole('textbox', { name: 'Name', exact: true }).fill('Company wiki (old)');
    await userPage.getByRole('button', { name: 'Save changes' }).click();
    await userPage.getByText('Changes saved.').waitFor();
    await userContext.close();
    const wiki = (await app.ctx.http.get(`/api/knowledge-bases/${globalId}`).set(auth(admin))).body;
    expect(wiki).toMatchObject({ name: 'Company wiki (old)', share_config: globalConfig });
  }, 60_000);

  it('deletes a base after a confirmation that states what goes with it', async () => {
    const kbId = await app.ctx.newKb(admin, { name: 'Old archive' });
    const doc = await uploadKbFile(app.ctx, admin, kbId, 'old.md', '# Old\n\nArchived text.');
    await settledKbFile(app.ctx, admin, kbId, doc.file_id);
    await signIn(page, admin, `/knowledge/${kbId}`);
    await fileRow(page, 'old.md').waitFor();
    await page.getByRole('button', { name: 'Delete knowledge base' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Old archive?' });
    const text = await dialog.innerText();
    expect(text).toContain('Its files (1), their indexed chunks and the stored originals are removed');
    expect(text).toContain('agents that use this knowledge base lose it');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL((url) => url.pathname === '/knowledge');
    expect((await app.ctx.http.get(`/api/knowledge-bases/${kbId}`).set(auth(admin))).status).toBe(404);
    const chunks = await app.ctx.dataSource.query<unknown[]>(
      `SELECT 1 FROM knowledge_chunks WHERE file_id = $1`,
      [doc.file_id],
    );
    expect(chunks).toEqual([]);
  });

  for (const dark of [false, true]) {
    const theme = dark ? 'dark' : 'light';
    it(`the knowledge list and a base's page at every width in the ${theme} theme`, async () => {
      const kbId = await app.ctx.newKb(admin, { name: 'Looks', description: 'Screens and contrast' });
      const good = await uploadKbFile(app.ctx, admin, kbId, 'pets.md', PETS);
      const bad = await uploadKbFile(app.ctx, admin, kbId, 'broken.pdf', Buffer.from('not a pdf'));
      await settledKbFile(app.ctx, admin, kbId, good.file_id);
      await settledKbFile(app.ctx, admin, kbId, bad.file_id);
      for (const width of [1440, 1024, 768, 375]) {
        const context = await browserContext(app, { width, dark });
        const shown = await context.newPage();
        await signIn(shown, admin, '/knowledge');
        await shown.locator(`[data-kb-id="${kbId}"]`).waitFor();
        await shown.getByRole('button', { name: 'New knowledge base' }).click();
        await shown.getByRole('combobox', { name: 'Who can read' }).selectOption('department');
        await checkPage(shown, `knowledge-list-${width}-${theme}`);

        await shown.goto(`/knowledge/${kbId}`);
        await fileRow(shown, 'broken.pdf').getByText('Failed', { exact: true }).waitFor();
        await shown.getByRole('textbox', { name: 'Query' }).fill('feline');
        await shown.getByRole('button', { name: 'Search' }).click();
        await shown.locator('li[data-rank="1"]').waitFor();
        await checkPage(shown, `knowledge-base-${width}-${theme}`);
        await context.close();
      }
    }, 180_000);
  }
});
