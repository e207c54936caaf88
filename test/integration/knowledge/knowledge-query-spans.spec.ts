import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setContentCapture } from '../../../src/observability/tracing';
import { FakeEmbeddingsServer } from '../../support/fake-embeddings';
import { queryKb, settledKbFile, uploadKbFile } from '../../support/knowledge';
import { TestContext, type TestUser } from '../../support/test-app';
import { allAttributeText, InMemoryTracing } from '../../support/tracing/in-memory-tracing';

describe('knowledge query spans', () => {
  let tracing: InMemoryTracing;
  let embeddings: FakeEmbeddingsServer;
  let ctx: TestContext;
  let dataDir: string;
  let admin: TestUser;
  let kbId: string;

  beforeAll(async () => {
    tracing = InMemoryTracing.start();
    embeddings = await FakeEmbeddingsServer.start();
    dataDir = await mkdtemp(join(tmpdir(), 'kb-spans-'));
    ctx = await TestContext.start({
      APP_ROLE: 'all',
      DATA_DIR: dataDir,
      OPENAI_BASE_URL: embeddings.baseUrl,
      EMBEDDINGS_MODEL: 'fake-embed',
    });
    admin = await ctx.newUser({ role: 'admin' });
    kbId = await ctx.newKb(admin);
    const file = await uploadKbFile(ctx, admin, kbId, 'pets.md', '# Pets\n\nThe feline slept on the sill.');
    expect((await settledKbFile(ctx, admin, kbId, file.file_id)).status).toBe('indexed');
  });
  afterAll(async () => {
    setContentCapture(false);
    await ctx?.close();
    await embeddings?.close();
    await rm(dataDir, { recursive: true, force: true });
    await tracing.stop();
  });
  beforeEach(() => tracing.reset());

  it('says how a search ranked, how many it asked for and how many it found, without the query', async () => {
    const hits = await queryKb(ctx, admin, kbId, { query: 'feline sill', top_k: 2 });
    expect(hits.length).toBeGreaterThan(0);
    expect(tracing.one('knowledge query').attributes).toEqual({
      'yuxi.knowledge.kb_ids': [kbId],
      'gen_ai.data_source.id': kbId,
      'yuxi.knowledge.top_k': 2,
      'yuxi.knowledge.mode': 'hybrid',
      'yuxi.knowledge.hits': hits.length,
    });
    expect(allAttributeText(tracing.spans())).not.toContain('feline sill');
  });

  it('is lexical when the embeddings service fails, and carries the query with content capture', async () => {
    embeddings.failing = true;
    setContentCapture(true);
    try {
      await queryKb(ctx, admin, kbId, { query: 'feline sill', top_k: 2 });
    } finally {
      embeddings.failing = false;
      setContentCapture(false);
    }
    const span = tracing.one('knowledge query');
    expect(span.attributes).toMatchObject({
      'yuxi.knowledge.mode': 'lexical',
      'gen_ai.retrieval.query.text': 'feline sill',
    });
    expect(span.events.map((e) => e.name)).toEqual(['knowledge.embeddings_failed']);
  });
});
