import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { KnowledgeDelegation, type DelegationGrant } from '../../../src/modules/knowledge/index';
import { ChunkWriter } from '../../../src/modules/knowledge/indexing/chunk-writer';
import { freePort } from '../free-port';
import type { TestContext } from '../test-app';

/**
 * Environment for an app that serves `/mcp/knowledge` on a real port its own workers call: PORT and
 * KNOWLEDGE_MCP_URL agree. Call `listen(ctx, port)` once the app is up.
 */
export async function knowledgeMcpEnvironment(): Promise<{
  port: number;
  url: string;
  env: Record<string, string>;
}> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp/knowledge`;
  return { port, url, env: { PORT: String(port), KNOWLEDGE_MCP_URL: url } };
}

export async function listen(ctx: TestContext, port: number): Promise<void> {
  await ctx.app.listen(port, '127.0.0.1');
}

export function mint(ctx: TestContext, grant: Partial<DelegationGrant> & { userId: string }): string {
  return ctx.app.get(KnowledgeDelegation).mint({
    runId: grant.runId ?? null,
    threadId: grant.threadId ?? null,
    kbIds: grant.kbIds ?? [],
    userId: grant.userId,
  });
}

/** A real MCP client on the endpoint, sending `token` as its bearer (none when null). */
export async function knowledgeClient(url: string, token: string | null): Promise<Client> {
  const client = new Client({ name: 'knowledge-test', version: '1.0.0' });
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The JSON a knowledge tool answered (its only text block), or its `error` for an `isError` result. */
export async function callJson<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; body: T }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    body = { text } as T;
  }
  return { isError: result.isError === true, body };
}

/** A parsed, indexed file: its Markdown stored and its chunks written (one per paragraph when not given). */
export async function insertFile(
  ctx: TestContext,
  kbId: string,
  options: { filename: string; markdown?: string; chunks?: string[]; status?: string },
): Promise<string> {
  const markdown = options.markdown ?? null;
  const [file] = await ctx.dataSource.query<{ id: string }[]>(
    `INSERT INTO knowledge_files (kb_id, filename, file_type, size_bytes, status, markdown, line_count, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 1) RETURNING id`,
    [
      kbId,
      options.filename,
      options.filename.split('.').pop() ?? 'md',
      Buffer.byteLength(markdown ?? ''),
      options.status ?? (markdown === null ? 'pending' : 'indexed'),
      markdown,
      markdown === null ? null : markdown.split('\n').length,
    ],
  );
  const chunks =
    options.chunks ?? (markdown === null ? [] : markdown.split(/\n{2,}/).filter((c) => c.trim() !== ''));
  if (chunks.length > 0) {
    // The file's counters are what BM25 reads for N and the average length, as the indexer keeps them.
    await ctx.dataSource.transaction(async (manager) => {
      const tokens = await ctx.app.get(ChunkWriter).write(
        manager,
        kbId,
        file.id,
        chunks.map((content) => ({ content })),
      );
      await manager.query(`UPDATE knowledge_files SET chunk_count = $2, token_count = $3 WHERE id = $1`, [
        file.id,
        chunks.length,
        tokens,
      ]);
    });
  }
  return file.id;
}
