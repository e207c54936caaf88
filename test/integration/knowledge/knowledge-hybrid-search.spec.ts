import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeEmbeddingsServer } from '../../support/fake-embeddings';
import { queryKb, settledKbFile, uploadKbFile } from '../../support/knowledge';
import { TestContext, type TestUser } from '../../support/test-app';

const DOCUMENT = [
  '# Pets',
  'The feline slept all afternoon on the warm windowsill.',
  '# Garage',
  'The automobile needs new tyres before winter.',
  '# Payroll',
  'Compensation is paid on the last working day of each month.',
].join('\n\n');

describe('knowledge search with embeddings (hybrid, reciprocal rank fusion)', () => {
  let embeddings: FakeEmbeddingsServer;
  let ctx: TestContext;
  let dataDir: string;
  let admin: TestUser;
  let kbId: string;

  beforeAll(async () => {
    embeddings = await FakeEmbeddingsServer.start();
    dataDir = await mkdtemp(join(tmpdir(), 'kb-hybrid-'));
    ctx = await TestContext.start({
      APP_ROLE: 'all',
      DATA_DIR: dataDir,
      OPENAI_BASE_URL: embeddings.baseUrl,
      EMBEDDINGS_MODEL: 'fake-embed',
    });
    admin = await ctx.newUser({ role: 'admin' });
    kbId = await ctx.newKb(admin);
  });
  afterAll(async () => {
    await ctx?.close();
    await embeddings?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores a unit vector per chunk and finds a passage that shares no word with the query', async () => {
    const file = await uploadKbFile(ctx, admin, kbId, 'mixed.md', DOCUMENT);
    expect((await settledKbFile(ctx, admin, kbId, file.file_id)).status).toBe('indexed');
    const rows = await ctx.dataSource.query<{ norm: number }[]>(
      `SELECT sqrt((SELECT sum(v * v) FROM unnest(embedding) AS v)) AS norm FROM knowledge_chunks WHERE file_id = $1`,
      [file.file_id],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.norm).toBeCloseTo(1, 5);
    expect(embeddings.calls[0]).toMatchObject({ model: 'fake-embed' });
    expect(embeddings.calls[0].input).toHaveLength(3);

    // "cat" is in no passage: only the vector ranking can find the feline one.
    const hits = await queryKb(ctx, admin, kbId, { query: 'cat', top_k: 3 });
    expect(hits[0].content).toContain('feline');
    expect(embeddings.calls.at(-1)).toEqual({ model: 'fake-embed', input: ['cat'] });
    // Both rankings agree on a passage that has the words too.
    const both = await queryKb(ctx, admin, kbId, { query: 'automobile tyres', top_k: 3 });
    expect(both[0].content).toContain('tyres');
  });

  it('answers lexically when the embeddings service fails, and indexes without vectors then', async () => {
    embeddings.failing = true;
    try {
      const hits = await queryKb(ctx, admin, kbId, { query: 'compensation month', top_k: 3 });
      expect(hits[0].content).toContain('Compensation');
      expect(await queryKb(ctx, admin, kbId, { query: 'cat' })).toEqual([]);

      const file = await uploadKbFile(ctx, admin, kbId, 'later.md', 'Vacation requests go to the team lead.');
      expect((await settledKbFile(ctx, admin, kbId, file.file_id)).status).toBe('indexed');
      const [row] = await ctx.dataSource.query<{ embedding: number[] | null }[]>(
        `SELECT embedding FROM knowledge_chunks WHERE file_id = $1`,
        [file.file_id],
      );
      expect(row.embedding).toBeNull();
      expect((await queryKb(ctx, admin, kbId, { query: 'vacation requests' }))[0].content).toContain(
        'team lead',
      );
    } finally {
      embeddings.failing = false;
    }
  });
});
