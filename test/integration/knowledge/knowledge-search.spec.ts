import { KnowledgeSearch } from '../../../src/modules/knowledge/search/knowledge-search';
import { ChunkWriter } from '../../../src/modules/knowledge/indexing/chunk-writer';
import { TestContext } from '../../support/test-app';

describe('knowledge search (lexical)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx?.close());

  async function kbWith(passages: string[]): Promise<{ kbId: string; fileId: string }> {
    const [kb] = await ctx.dataSource.query<{ id: string }[]>(
      `INSERT INTO knowledge_bases (name, description, share_config) VALUES ('kb', '', '{"version":2,"read_scope":{"level":"global"},"manage_scope":null}') RETURNING id`,
    );
    const [file] = await ctx.dataSource.query<{ id: string }[]>(
      `INSERT INTO knowledge_files (kb_id, filename, file_type, size_bytes, status, version) VALUES ($1, 'doc.md', 'md', 1, 'indexed', 1) RETURNING id`,
      [kb.id],
    );
    await ctx.dataSource.transaction(async (manager) => {
      const tokens = await ctx.app.get(ChunkWriter).write(
        manager,
        kb.id,
        file.id,
        passages.map((content) => ({ content })),
      );
      await manager.query(`UPDATE knowledge_files SET chunk_count = $2, token_count = $3 WHERE id = $1`, [
        file.id,
        passages.length,
        tokens,
      ]);
    });
    return { kbId: kb.id, fileId: file.id };
  }

  it('ranks the chunk that holds the Chinese and the English terms first', async () => {
    const { kbId } = await kbWith([
      '公司的年假制度：员工每年享有十五天带薪年假。',
      '报销流程：提交发票后三个工作日内审批。',
      'The deployment guide explains how to configure PostgreSQL replication.',
      'Lunch is served at noon in the cafeteria.',
    ]);
    const search = ctx.app.get(KnowledgeSearch);
    const zh = await search.query({ kbIds: [kbId], query: '年假有几天', topK: 3 });
    expect(zh[0]?.chunkIndex).toBe(0);
    const en = await search.query({ kbIds: [kbId], query: 'postgresql replication', topK: 3 });
    expect(en[0]?.chunkIndex).toBe(2);
    expect(en[0]?.score).toBeGreaterThan(0);
  });
});
