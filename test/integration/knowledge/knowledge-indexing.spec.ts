import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDocx } from '../../support/fixtures/make-docx';
import { makePdf } from '../../support/fixtures/make-pdf';
import { makeXlsx } from '../../support/fixtures/make-xlsx';
import { KnowledgeIndexingProcessor } from '../../../src/modules/knowledge/indexing/knowledge-indexing.processor';
import { queryKb, settledKbFile, uploadKbFile } from '../../support/knowledge';
import { auth } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

const KB_FILE_LIMIT = 64 * 1024;

describe('knowledge files: upload, indexing, versions', () => {
  let ctx: TestContext;
  let dataDir: string;
  let admin: TestUser;
  let reader: TestUser;
  let kbId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kb-indexing-'));
    ctx = await TestContext.start({
      APP_ROLE: 'all',
      DATA_DIR: dataDir,
      KB_FILE_LIMIT_BYTES: String(KB_FILE_LIMIT),
    });
    admin = await ctx.newUser({ role: 'admin' });
    reader = await ctx.newUser();
    kbId = await ctx.newKb(admin);
  });
  afterAll(async () => {
    await ctx?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const chunkRows = (fileId: string) =>
    ctx.dataSource.query<{ chunk_index: number; content: string }[]>(
      `SELECT chunk_index, content FROM knowledge_chunks WHERE file_id = $1 ORDER BY chunk_index`,
      [fileId],
    );

  it.each([
    ['notes.md', () => Promise.resolve(Buffer.from('# Onboarding\n\nBadge pickup happens at reception.\n'))],
    ['plain.txt', () => Promise.resolve(Buffer.from('Parking permits are renewed every March.\n'))],
    ['report.pdf', () => makePdf([['Quarterly revenue grew in the northern region'], ['第二页：季度报告']])],
    [
      'design.docx',
      () => makeDocx({ title: 'Design review', paragraphs: ['The cache layer uses write-through mode.'] }),
    ],
  ])('indexes %s: status, parsed Markdown, line count and chunks', async (filename, make) => {
    const uploaded = await uploadKbFile(ctx, admin, kbId, filename, await make());
    expect(uploaded).toMatchObject({ kb_id: kbId, filename, status: 'pending', version: 1 });
    const file = await settledKbFile(ctx, reader, kbId, uploaded.file_id);
    expect(file).toMatchObject({ status: 'indexed', error: null });
    const [row] = await ctx.dataSource.query<{ markdown: string; line_count: number }[]>(
      `SELECT markdown, line_count FROM knowledge_files WHERE id = $1`,
      [uploaded.file_id],
    );
    expect(row.line_count).toBe(row.markdown.split('\n').length);
    expect(file.line_count).toBe(row.line_count);
    const chunks = await chunkRows(uploaded.file_id);
    expect(chunks.length).toBe(file.chunk_count);
    expect(chunks.length).toBeGreaterThan(0);
    expect(existsSync(join(dataDir, 'knowledge', kbId, uploaded.file_id))).toBe(true);
  });

  it('turns HTML, CSV and Excel into Markdown (tables for the last two) and indexes them', async () => {
    const html = await uploadKbFile(
      ctx,
      admin,
      kbId,
      'page.html',
      '<!DOCTYPE html><html><head><title>t</title><style>p{}</style></head><body><h1>Visitors</h1>' +
        '<script>alert("x")</script><p>Guests sign in at the front gate.</p></body></html>',
    );
    const csv = await uploadKbFile(ctx, admin, kbId, 'rooms.csv', 'room,seats\n"Orion, large",12\nVega,4\n');
    const xlsx = await uploadKbFile(
      ctx,
      admin,
      kbId,
      'stock.xlsx',
      await makeXlsx([
        {
          name: 'Stock',
          rows: [
            ['item', 'count'],
            ['stapler', 3],
          ],
        },
      ]),
    );
    const markdownOf = async (fileId: string) => {
      expect((await settledKbFile(ctx, admin, kbId, fileId)).status).toBe('indexed');
      const [row] = await ctx.dataSource.query<{ markdown: string }[]>(
        `SELECT markdown FROM knowledge_files WHERE id = $1`,
        [fileId],
      );
      return row.markdown;
    };
    expect(await markdownOf(html.file_id)).toBe('# Visitors\n\nGuests sign in at the front gate.');
    expect(await markdownOf(csv.file_id)).toBe(
      '| room | seats |\n| --- | --- |\n| Orion, large | 12 |\n| Vega | 4 |',
    );
    expect(await markdownOf(xlsx.file_id)).toContain('| stapler | 3 |');
    expect((await queryKb(ctx, reader, kbId, { query: 'front gate guests' }))[0].filename).toBe('page.html');
    expect((await queryKb(ctx, reader, kbId, { query: 'orion seats' }))[0].filename).toBe('rooms.csv');
  });

  it('finds the PDF and Word passages by a query in their language', async () => {
    const en = await queryKb(ctx, reader, kbId, { query: 'northern region revenue', top_k: 3 });
    expect(en[0]).toMatchObject({ filename: 'report.pdf' });
    const zh = await queryKb(ctx, reader, kbId, { query: '季度报告', top_k: 3 });
    expect(zh[0]).toMatchObject({ filename: 'report.pdf' });
    const docx = await queryKb(ctx, reader, kbId, { query: 'write-through cache' });
    expect(docx[0]).toMatchObject({ filename: 'design.docx' });
  });

  it('shows a parse failure on the file, with its code, and indexes nothing for it', async () => {
    const uploaded = await uploadKbFile(ctx, admin, kbId, 'broken.pdf', Buffer.from('this is not a pdf'));
    const file = await settledKbFile(ctx, admin, kbId, uploaded.file_id);
    expect(file.status).toBe('failed');
    expect(file.error).toMatchObject({ code: 'ocr.unsupported_type' });
    expect(await chunkRows(uploaded.file_id)).toEqual([]);

    const empty = await uploadKbFile(ctx, admin, kbId, 'empty.md', Buffer.from('   \n\n'));
    expect((await settledKbFile(ctx, admin, kbId, empty.file_id)).error).toMatchObject({
      code: 'knowledge.no_text',
    });
  });

  it('keeps the old version searchable until the new one is indexed, then replaces it', async () => {
    const v1 = await uploadKbFile(ctx, admin, kbId, 'policy.md', '# Policy\n\nThe office opens at eight.');
    await settledKbFile(ctx, admin, kbId, v1.file_id);

    // A new version that fails leaves the old one in place.
    const broken = await uploadKbFile(ctx, admin, kbId, 'policy.md', Buffer.from('\n'));
    expect(broken.version).toBe(2);
    expect((await settledKbFile(ctx, admin, kbId, broken.file_id)).status).toBe('failed');
    expect((await queryKb(ctx, reader, kbId, { query: 'office opens' }))[0]).toMatchObject({
      file_id: v1.file_id,
    });

    // While the new version waits for the queue, the old one still answers.
    const consumer = ctx.app.get(KnowledgeIndexingProcessor).worker;
    await consumer.pause();
    const v3 = await uploadKbFile(ctx, admin, kbId, 'policy.md', '# Policy\n\nThe office opens at nine.');
    expect(v3.version).toBe(3);
    try {
      expect(
        (await ctx.http.get(`/api/knowledge-bases/${kbId}/files/${v3.file_id}`).set(auth(admin))).body.status,
      ).toBe('pending');
      const waiting = await queryKb(ctx, reader, kbId, { query: 'office opens' });
      expect(waiting.map((hit) => hit.file_id)).toEqual([v1.file_id]);
    } finally {
      await consumer.resume();
    }
    expect((await settledKbFile(ctx, admin, kbId, v3.file_id)).status).toBe('indexed');
    const rows = await ctx.dataSource.query<{ id: string; version: number }[]>(
      `SELECT id, version FROM knowledge_files WHERE kb_id = $1 AND filename = 'policy.md'`,
      [kbId],
    );
    expect(rows).toEqual([{ id: v3.file_id, version: 3 }]);
    expect(await chunkRows(v1.file_id)).toEqual([]);
    expect(existsSync(join(dataDir, 'knowledge', kbId, v1.file_id))).toBe(false);
    const hits = await queryKb(ctx, reader, kbId, { query: 'office opens' });
    expect(hits.map((hit) => hit.file_id)).toEqual([v3.file_id]);
    expect(hits[0].content).toContain('nine');
  });

  it('refuses an unsupported type with 422 and a file over the cap with 413, leaving no temp file', async () => {
    const exe = await ctx.http
      .post(`/api/knowledge-bases/${kbId}/files`)
      .set(auth(admin))
      .attach('file', Buffer.from('MZ'), 'tool.exe');
    expect(exe.status).toBe(422);
    expect(exe.body.code).toBe('knowledge.unsupported_file_type');
    const big = await ctx.http
      .post(`/api/knowledge-bases/${kbId}/files`)
      .set(auth(admin))
      .attach('file', Buffer.alloc(KB_FILE_LIMIT + 1, 'a'), 'big.txt');
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('common.payload_too_large');
    const none = await ctx.http.post(`/api/knowledge-bases/${kbId}/files`).set(auth(admin)).field('x', 'y');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('knowledge.no_file');
    const temp = join(dataDir, 'tmp', 'uploads');
    expect(existsSync(temp) ? await readdir(temp) : []).toEqual([]);
    const names = await ctx.dataSource.query<{ filename: string }[]>(
      `SELECT filename FROM knowledge_files WHERE filename IN ('tool.exe', 'big.txt')`,
    );
    expect(names).toEqual([]);
  });

  it('narrows a query to one file by name, lists files by name (wildcards literal) and validates the body', async () => {
    const a = await uploadKbFile(ctx, admin, kbId, 'alpha_100%.md', 'Shared phrase about lighthouses.');
    const b = await uploadKbFile(ctx, admin, kbId, 'beta.md', 'Shared phrase about lighthouses, again.');
    await settledKbFile(ctx, admin, kbId, a.file_id);
    await settledKbFile(ctx, admin, kbId, b.file_id);
    const both = await queryKb(ctx, reader, kbId, { query: 'lighthouses' });
    expect(new Set(both.map((hit) => hit.filename))).toEqual(new Set(['alpha_100%.md', 'beta.md']));
    const onlyB = await queryKb(ctx, reader, kbId, { query: 'lighthouses', file_name: 'BETA.md' });
    expect(onlyB.map((hit) => hit.file_id)).toEqual([b.file_id]);

    const listed = async (query: string) =>
      (
        (await ctx.http.get(`/api/knowledge-bases/${kbId}/files`).query({ query }).set(auth(reader)))
          .body as {
          items: { filename: string }[];
        }
      ).items.map((file) => file.filename);
    expect(await listed('100%')).toEqual(['alpha_100%.md']);
    expect(await listed('a_1')).toEqual(['alpha_100%.md']);
    expect(await listed('%')).toEqual(['alpha_100%.md']);

    for (const body of [
      {},
      { query: '' },
      { query: 'x', top_k: 0 },
      { query: 'x', top_k: 51 },
      { query: 7 },
    ]) {
      const res = await ctx.http.post(`/api/knowledge-bases/${kbId}/query`).set(auth(reader)).send(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({
        body,
        status: 400,
        code: 'common.validation_failed',
      });
    }
    expect(await queryKb(ctx, reader, kbId, { query: '。，!?' })).toEqual([]);
  });

  it('deletes a file with its chunks and its stored original', async () => {
    const file = await uploadKbFile(ctx, admin, kbId, 'temp.txt', 'Ephemeral note about zebras.');
    await settledKbFile(ctx, admin, kbId, file.file_id);
    const res = await ctx.http.delete(`/api/knowledge-bases/${kbId}/files/${file.file_id}`).set(auth(admin));
    expect(res.status).toBe(204);
    expect(await chunkRows(file.file_id)).toEqual([]);
    expect(existsSync(join(dataDir, 'knowledge', kbId, file.file_id))).toBe(false);
    expect(await queryKb(ctx, reader, kbId, { query: 'zebras' })).toEqual([]);
  });
});
