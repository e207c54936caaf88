import { Injectable, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { createHttpApp } from '../src/bootstrap/create-http-app.js';
import { parseConfig } from '../src/config/parse-config.js';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../src/modules/tools/execution/tool-execution-context.js';
import { ToolExecutor } from '../src/modules/tools/execution/tool-executor.js';
import { AgentTool } from '../src/modules/tools/registry/agent-tool.decorator.js';
import { ToolRegistry } from '../src/modules/tools/registry/tool-registry.js';
import { ToolsModule } from '../src/modules/tools/tools.module.js';
import type { BenchContext } from './support/bench-context.js';
import { createBenchDatabase } from './support/bench-database.js';
import { appEnvironment } from './support/bench-env.js';
import { percentile } from './support/stats.js';

const noopSchema = z.strictObject({ value: z.string() });

@Injectable()
class NoopTool {
  @AgentTool({
    name: 'bench_noop',
    category: 'debug',
    tags: [],
    displayName: 'noop',
    description: 'Does nothing.',
    schema: noopSchema,
  })
  noop(args: z.infer<typeof noopSchema>) {
    return Promise.resolve(args.value);
  }
}

@Module({ imports: [ToolsModule], providers: [NoopTool] })
class NoopToolModule {}

export interface PipelineFigures {
  calls: number;
  directP50Ms: number;
  directP99Ms: number;
  pipelineP50Ms: number;
  pipelineP99Ms: number;
  extraP50Ms: number;
  extraP99Ms: number;
  ratioP50: number;
}

async function time(calls: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * Overhead of the execution boundary (guards, timeout, error conversion, audit row, metrics) for a
 * no-op tool, sequential calls in process against a real database, versus calling the handler directly.
 */
export async function runToolPipelineBench(context: BenchContext, calls = 3000): Promise<PipelineFigures> {
  const database = await createBenchDatabase();
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  const env = { ...appEnvironment({ databaseName: database.name, port: 0, dataDir }), APP_ROLE: 'api' };
  const app = await createHttpApp(parseConfig(env), { extraModules: [NoopToolModule] });
  await app.init();
  try {
    const executor = app.get(ToolExecutor);
    const handler = app.get(ToolRegistry).get('bench_noop')!.handler;
    const [user] = await app
      .get(DataSource)
      .query<{ id: string; role: 'superadmin'; department_id: string }[]>(
        `SELECT id, role, department_id FROM users LIMIT 1`,
      );
    const tools = new Set(['bench_noop']);
    const toolContext: ToolExecutionContext = {
      user: { id: user.id, role: user.role, departmentId: user.department_id },
      runId: randomUUID(),
      threadId: randomUUID(),
      leaseToken: 'bench',
      workdir: '/home/gem/user-data/workdir/bench/',
      executableTools: tools,
      visibleTools: tools,
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
    };
    const invocation = { context: toolContext, toolCallId: 'x', signal: new AbortController().signal };
    context.progress(`tool pipeline: ${calls} sequential calls, direct and through the ToolExecutor`);
    await time(300, (i) =>
      executor.execute({ id: `warm-${i}`, name: 'bench_noop', args: { value: 'v' } }, toolContext),
    );
    await time(300, () => handler({ value: 'v' }, invocation));
    const direct = await time(calls, () => handler({ value: 'v' }, invocation));
    const pipeline = await time(calls, (i) =>
      executor.execute({ id: `call-${i}`, name: 'bench_noop', args: { value: 'v' } }, toolContext),
    );
    const figures = {
      directP50Ms: percentile(direct, 50),
      directP99Ms: percentile(direct, 99),
      pipelineP50Ms: percentile(pipeline, 50),
      pipelineP99Ms: percentile(pipeline, 99),
    };
    return {
      calls,
      ...figures,
      extraP50Ms: figures.pipelineP50Ms - figures.directP50Ms,
      extraP99Ms: figures.pipelineP99Ms - figures.directP99Ms,
      ratioP50: figures.pipelineP50Ms / figures.directP50Ms,
    };
  } finally {
    await app.close();
    await database.drop();
  }
}
