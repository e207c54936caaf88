import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { createHttpApp } from '../src/bootstrap/create-http-app.js';
import type { AuthenticatedUser } from '../src/common/auth/authenticated-user.js';
import { parseConfig } from '../src/config/parse-config.js';
import { McpRuntimeModule } from '../src/modules/mcp/index.js';
import { McpToolLoader } from '../src/modules/mcp/runtime/mcp-tool-loader.js';
import { McpServersService } from '../src/modules/mcp/servers/mcp-servers.service.js';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../src/modules/tools/execution/tool-execution-context.js';
import { ToolExecutor } from '../src/modules/tools/execution/tool-executor.js';
import type { BenchContext } from './support/bench-context.js';
import { createBenchDatabase } from './support/bench-database.js';
import { appEnvironment } from './support/bench-env.js';
import { McpBenchServer } from './support/mcp-bench-server.js';
import { median, percentile } from './support/stats.js';

export interface McpFigures {
  calls: number;
  directP50Ms: number;
  pipelineP50Ms: number;
  ratioP50: number;
  coldDiscovery: {
    servers: number;
    listDelayMs: number;
    runsMs: number[];
    medianMs: number;
    ratioToDelay: number;
  };
  warmDiscovery: { rounds: number; p50Ms: number; p99Ms: number };
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
 * MCP: (1) a tool call through the ToolExecutor (audit, metrics, guards, pooled session) vs a direct SDK
 * client call to the same local server, p50; (2) cold discovery of 5 servers each answering `tools/list`
 * after 300 ms (new configs each round: connect + initialize + list); (3) warm discovery (cached lists,
 * the per-run path: a database read, header decryption, hashes).
 */
export async function runMcpBench(context: BenchContext, calls = 2000): Promise<McpFigures> {
  const database = await createBenchDatabase();
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  const env = {
    ...appEnvironment({ databaseName: database.name, port: 0, dataDir }),
    APP_ROLE: 'api',
    ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
  };
  const app = await createHttpApp(parseConfig(env), { extraModules: [McpRuntimeModule] });
  await app.init();
  const echo = await McpBenchServer.start('echo');
  const slow = await Promise.all([0, 1, 2, 3, 4].map((i) => McpBenchServer.start(`slow_${i}`, 300)));
  // The direct client is renewed per half too: one SDK session piles up abort listeners (TOOLCHAIN).
  let direct = new Client({ name: 'bench-direct', version: '1.0.0' });
  try {
    const [row] = await app
      .get(DataSource)
      .query<{ id: string; role: 'superadmin'; department_id: string; username: string }[]>(
        `SELECT id, role, department_id, username FROM users LIMIT 1`,
      );
    const actor: AuthenticatedUser = {
      id: row.id,
      username: row.username,
      role: row.role,
      departmentId: row.department_id,
      via: 'jwt',
    };
    const servers = app.get(McpServersService);
    const loader = app.get(McpToolLoader);
    const executor = app.get(ToolExecutor);
    const add = (slug: string, url: string) =>
      servers.create(actor, {
        slug,
        name: slug,
        transport: 'streamable_http',
        url,
        headers: { Authorization: 'Bearer bench' },
      });

    const scope = {
      runId: randomUUID(),
      threadId: randomUUID(),
      actor: { id: row.id },
      snapshot: { knowledges: [] },
    };
    // (1) pipeline vs direct
    await add('echo', echo.url);
    const loaded = await loader.load(['echo'], scope);
    const tool = loaded.tools[0];
    const names = new Set([tool.name]);
    const toolContext: ToolExecutionContext = {
      user: { id: row.id, role: row.role, departmentId: row.department_id },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'bench',
      workdir: '/home/gem/user-data/workdir/bench/',
      executableTools: names,
      visibleTools: names,
      offeredTools: new Map([[tool.name, tool.execution!]]),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
    };
    await direct.connect(new StreamableHTTPClientTransport(new URL(echo.url)));
    context.progress(`mcp: ${calls} sequential tool calls, direct SDK client and through the ToolExecutor`);
    const viaPipeline = (i: number) =>
      executor.execute({ id: `call-${i}`, name: 'echo', args: { text: 'hi' } }, toolContext).then((r) => {
        if (r.isError) throw new Error(`pipeline call failed: ${r.content}`);
      });
    const viaSdk = () => direct.callTool({ name: 'echo', arguments: { text: 'hi' } });
    await time(200, viaPipeline);
    await time(200, viaSdk);
    // Interleaved halves, so drift in machine load hits both paths alike.
    const directSamples: number[] = [];
    const pipelineSamples: number[] = [];
    for (let half = 0; half < 2; half++) {
      if (half > 0) {
        await direct.close();
        direct = new Client({ name: 'bench-direct', version: '1.0.0' });
        await direct.connect(new StreamableHTTPClientTransport(new URL(echo.url)));
        await time(50, viaSdk);
      }
      directSamples.push(...(await time(calls / 2, viaSdk)));
      pipelineSamples.push(...(await time(calls / 2, (i) => viaPipeline(half * calls + i))));
    }

    // (2) cold discovery: each round new records (new config hashes), so new sessions and lists.
    context.progress('mcp: cold discovery of 5 servers answering after 300 ms, 5 rounds');
    const coldRuns: number[] = [];
    for (let round = 0; round < 5; round++) {
      const slugs = slow.map((_, i) => `cold-${round}-${i}`);
      for (const [i, server] of slow.entries()) await add(slugs[i], server.url);
      const started = performance.now();
      const result = await loader.load(slugs, scope);
      coldRuns.push(performance.now() - started);
      if (result.tools.length !== 5) throw new Error(`cold discovery found ${result.tools.length} tools`);
    }

    // (3) warm discovery of the last round's five servers.
    const warmSlugs = slow.map((_, i) => `cold-4-${i}`);
    const warm = await time(500, () => loader.load(warmSlugs, scope));
    return {
      calls,
      directP50Ms: percentile(directSamples, 50),
      pipelineP50Ms: percentile(pipelineSamples, 50),
      ratioP50: percentile(pipelineSamples, 50) / percentile(directSamples, 50),
      coldDiscovery: {
        servers: 5,
        listDelayMs: 300,
        runsMs: coldRuns,
        medianMs: median(coldRuns),
        ratioToDelay: median(coldRuns) / 300,
      },
      warmDiscovery: { rounds: 500, p50Ms: percentile(warm, 50), p99Ms: percentile(warm, 99) },
    };
  } finally {
    await direct.close().catch(() => undefined);
    await app.close();
    await echo.close();
    for (const server of slow) await server.close();
    await database.drop();
  }
}
