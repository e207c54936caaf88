import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { createHttpApp } from '../src/bootstrap/create-http-app.js';
import { parseConfig } from '../src/config/parse-config.js';
import { KnowledgeDelegation } from '../src/modules/knowledge/index.js';
import { KnowledgeSearch } from '../src/modules/knowledge/search/knowledge-search.js';
import { ChunkWriter } from '../src/modules/knowledge/indexing/chunk-writer.js';
import { McpRuntimeModule } from '../src/modules/mcp/index.js';
import { McpToolLoader } from '../src/modules/mcp/runtime/mcp-tool-loader.js';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../src/modules/tools/execution/tool-execution-context.js';
import { ToolExecutor } from '../src/modules/tools/execution/tool-executor.js';
import type { BenchContext } from './support/bench-context.js';
import { createBenchDatabase } from './support/bench-database.js';
import { appEnvironment } from './support/bench-env.js';
import { freePort } from './support/free-port.js';
import { generateCorpus } from './support/knowledge-corpus.js';
import { percentile } from './support/stats.js';

export interface KnowledgeMcpFigures {
  chunks: number;
  queries: number;
  /** 1-minute load average when the measurement started: above the core count, figures are inflated. */
  loadAverage1m: number;
  /** `KnowledgeSearch.query` called in process: what MCP adds to is this. */
  searchP50Ms: number;
  searchP99Ms: number;
  /** An SDK client posting `tools/call query_kb` to `/mcp/knowledge` (token check, access re-check, search). */
  directP50Ms: number;
  directP99Ms: number;
  /** The run's path: the offered tool through the ToolExecutor, a token minted per request, pooled session. */
  runtimeP50Ms: number;
  runtimeP99Ms: number;
}

async function time(count: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * `query_kb` through MCP over 10,000 indexed chunks (Chinese and English): p50/p99 of (1) an SDK client
 * calling `/mcp/knowledge` directly and (2) the path a run takes (McpToolLoader's offered tool through
 * the ToolExecutor: guards, audit, a fresh delegation token per request on the pooled session).
 */
export async function runKnowledgeMcpBench(
  context: BenchContext,
  options: { chunks?: number; queries?: number } = {},
): Promise<KnowledgeMcpFigures> {
  const chunks = options.chunks ?? 10_000;
  const queries = options.queries ?? 400;
  const database = await createBenchDatabase();
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp/knowledge`;
  const env = {
    ...appEnvironment({ databaseName: database.name, port, dataDir }),
    APP_ROLE: 'api',
    KNOWLEDGE_MCP_URL: url,
  };
  const app = await createHttpApp(parseConfig(env), { extraModules: [McpRuntimeModule] });
  await app.listen(port, '127.0.0.1');
  let client: Client | undefined;
  try {
    const db = app.get(DataSource);
    const [user] = await db.query<{ id: string; role: 'superadmin'; department_id: string }[]>(
      `SELECT id, role, department_id FROM users LIMIT 1`,
    );
    const [kb] = await db.query<{ id: string }[]>(
      `INSERT INTO knowledge_bases (name, description, share_config)
       VALUES ('bench', '', '{"version":2,"read_scope":{"level":"global"},"manage_scope":null}') RETURNING id`,
    );
    // The corpus of `bench:knowledge` (one chunk per section), written by the indexer's ChunkWriter.
    const generated = generateCorpus({ files: 50, sectionsPerFile: chunks / 50, queriesPerLanguage: 100 });
    context.progress(`knowledge-mcp: writing ${generated.sections} chunks (zh+en)`);
    for (const file of generated.files) {
      const sections = file.content.split(/\n(?=## )/).slice(1);
      const [row] = await db.query<{ id: string }[]>(
        `INSERT INTO knowledge_files (kb_id, filename, file_type, size_bytes, status, markdown, line_count, version)
         VALUES ($1, $2, 'md', $3, 'indexed', $4, $5, 1) RETURNING id`,
        [
          kb.id,
          file.filename,
          Buffer.byteLength(file.content),
          file.content,
          file.content.split('\n').length,
        ],
      );
      await db.transaction(async (manager) => {
        const tokens = await app.get(ChunkWriter).write(
          manager,
          kb.id,
          row.id,
          sections.map((content) => ({ content })),
        );
        await manager.query(`UPDATE knowledge_files SET chunk_count = $2, token_count = $3 WHERE id = $1`, [
          row.id,
          sections.length,
          tokens,
        ]);
      });
    }
    await db.query('VACUUM ANALYZE');
    const queryTexts = generated.queries.map((q) => q.query);
    const queryOf = (i: number) => queryTexts[(i * 7919) % queryTexts.length];

    const token = app
      .get(KnowledgeDelegation)
      .mint({ userId: user.id, runId: null, threadId: null, kbIds: [kb.id] });
    client = new Client({ name: 'bench-knowledge', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const viaSdk = async (i: number) => {
      const result = (await client!.callTool({
        name: 'query_kb',
        arguments: { kb_id: kb.id, query: queryOf(i), top_k: 5 },
      })) as CallToolResult;
      if (result.isError === true) throw new Error(`query_kb failed: ${JSON.stringify(result.content)}`);
    };

    const run = {
      runId: randomUUID(),
      threadId: randomUUID(),
      actor: { id: user.id },
      snapshot: { knowledges: [kb.id] },
    };
    const loaded = await app.get(McpToolLoader).load(['knowledge'], run);
    const tool = loaded.tools.find((t) => t.name === 'query_kb');
    if (tool === undefined)
      throw new Error(`knowledge tools not loaded: ${JSON.stringify(loaded.unavailable)}`);
    const names = new Set(loaded.tools.map((t) => t.name));
    const toolContext: ToolExecutionContext = {
      user: { id: user.id, role: user.role, departmentId: user.department_id },
      runId: run.runId,
      threadId: run.threadId,
      leaseToken: 'bench',
      workdir: '/home/gem/user-data/workdir/bench/',
      executableTools: names,
      visibleTools: names,
      offeredTools: new Map(loaded.tools.map((t) => [t.name, t.execution!])),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
    };
    const executor = app.get(ToolExecutor);
    const viaRuntime = (i: number) =>
      executor
        .execute(
          { id: `q-${i}`, name: 'query_kb', args: { kb_id: kb.id, query: queryOf(i), top_k: 5 } },
          toolContext,
        )
        .then((r) => {
          if (r.isError) throw new Error(`query_kb failed through the executor: ${r.content}`);
        });

    const search = app.get(KnowledgeSearch);
    const inProcess = (i: number) => search.query({ kbIds: [kb.id], query: queryOf(i), topK: 5 });

    context.progress(`knowledge-mcp: ${queries} query_kb calls each: in process, SDK client, run path`);
    await time(50, viaSdk);
    await time(50, viaRuntime);
    const loadAverage1m = loadavg()[0];
    const baseline: number[] = [];
    const direct: number[] = [];
    const runtime: number[] = [];
    for (let half = 0; half < 2; half++) {
      baseline.push(...(await time(queries / 2, (i) => inProcess(half * queries + i))));
      direct.push(...(await time(queries / 2, (i) => viaSdk(half * queries + i))));
      runtime.push(...(await time(queries / 2, (i) => viaRuntime(half * queries + i))));
    }
    return {
      chunks,
      queries,
      loadAverage1m,
      searchP50Ms: percentile(baseline, 50),
      searchP99Ms: percentile(baseline, 99),
      directP50Ms: percentile(direct, 50),
      directP99Ms: percentile(direct, 99),
      runtimeP50Ms: percentile(runtime, 50),
      runtimeP99Ms: percentile(runtime, 99),
    };
  } finally {
    await client?.close().catch(() => undefined);
    await app.close();
    await database.drop();
  }
}

export function knowledgeMcpLines(f: KnowledgeMcpFigures): string[] {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  return [
    `knowledge MCP query_kb over ${f.chunks} chunks (${f.queries} calls each, load ${f.loadAverage1m.toFixed(1)})`,
    `  search in process               p50 ${ms(f.searchP50Ms)}  p99 ${ms(f.searchP99Ms)}`,
    `  SDK client -> /mcp/knowledge     p50 ${ms(f.directP50Ms)}  p99 ${ms(f.directP99Ms)}`,
    `  run path (ToolExecutor, token)   p50 ${ms(f.runtimeP50Ms)}  p99 ${ms(f.runtimeP99Ms)}`,
  ];
}
