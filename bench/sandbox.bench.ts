import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { createHttpApp } from '../src/bootstrap/create-http-app.js';
import { parseConfig } from '../src/config/parse-config.js';
import { Sandbox } from '../src/modules/sandbox/sandbox.port.js';
import {
  noRuntimeCheck,
  type ToolCaller,
  type ToolExecutionContext,
} from '../src/modules/tools/execution/tool-execution-context.js';
import { ToolExecutor } from '../src/modules/tools/execution/tool-executor.js';
import { UsersService } from '../src/modules/users/users.service.js';
import type { BenchContext } from './support/bench-context.js';
import { createBenchDatabase } from './support/bench-database.js';
import { appEnvironment } from './support/bench-env.js';
import { percentile } from './support/stats.js';

interface Latency {
  calls: number;
  p50Ms: number;
  p99Ms: number;
}

interface ConcurrentBatch {
  calls: number;
  completed: number;
  toolErrors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  wallMs: number;
}

export interface SandboxFigures {
  /** `execute({command: "true"})` through the ToolExecutor, sequential, after warm-up calls. */
  execute: Latency & {
    warmup: number;
    targetP50Ms: number;
    /** The sandbox run's own `duration_ms` of the same calls: the rest is the tool and the pipeline. */
    sandboxP50Ms: number;
    sandboxP99Ms: number;
  };
  /** `Sandbox.run()` of `true` over an empty folder, then `dispose()`, sequential. */
  sandboxStart: Latency;
  /** `sleep 0.2; echo done`, all calls of a batch at once across the users, batches one after another. */
  concurrent: { users: number; perUser: number; command: string; batches: ConcurrentBatch[] };
  /** The 1-minute load average when the measurements started and ended (other work skews them). */
  loadAverage: { start: number; end: number };
}

const WARMUP_CALLS = 5;
const SEQUENTIAL_CALLS = 100;
const TARGET_P50_MS = 30;
const USERS = 10;
const CALLS_PER_USER = 2;
const BATCHES = 5;
const CONCURRENT_COMMAND = 'sleep 0.2; echo done';
const WORKDIR = '/home/gem/user-data/workdir/bench/';

const latency = (samples: number[]): Latency => ({
  calls: samples.length,
  p50Ms: percentile(samples, 50),
  p99Ms: percentile(samples, 99),
});

/** A direct call context (no runtime around it) for `user`, allowed to call `execute` only. */
function directContext(user: ToolCaller): ToolExecutionContext {
  const tools = new Set(['execute']);
  return {
    user,
    runId: randomUUID(),
    threadId: randomUUID(),
    leaseToken: 'bench',
    workdir: WORKDIR,
    executableTools: tools,
    visibleTools: tools,
    isSubagent: false,
    verifyAuthorization: noRuntimeCheck,
  };
}

/**
 * The `execute` tool (bubblewrap sandbox on this host), in process against a real database:
 * (1) `true` through the ToolExecutor, sequential, with the sandbox's own share; (2) the sandbox start
 * alone (`Sandbox.run` + `dispose`); (3) 20 concurrent `sleep 0.2` calls across 10 users, 5 batches.
 */
export async function runSandboxBench(context: BenchContext): Promise<SandboxFigures> {
  const database = await createBenchDatabase();
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  const env = {
    ...appEnvironment({ databaseName: database.name, port: 0, dataDir }),
    APP_ROLE: 'api',
    // The concurrent batch starts 20 commands at once: none may be refused as busy.
    SANDBOX_MAX_CONCURRENCY: String(USERS * CALLS_PER_USER),
    SANDBOX_MAX_PER_USER: String(CALLS_PER_USER),
  };
  const app = await createHttpApp(parseConfig(env));
  await app.init();
  try {
    const sandbox = app.get(Sandbox);
    const unavailable = sandbox.unavailableReason();
    if (unavailable !== null) throw new Error(`the sandbox is unavailable here: ${unavailable}`);
    const executor = app.get(ToolExecutor);
    const [admin] = await app
      .get(DataSource)
      .query<{ id: string; username: string; role: 'superadmin'; department_id: string }[]>(
        `SELECT id, username, role, department_id FROM users WHERE role = 'superadmin' LIMIT 1`,
      );
    const actor = {
      id: admin.id,
      username: admin.username,
      role: admin.role,
      departmentId: admin.department_id,
      via: 'jwt' as const,
    };
    context.progress(`sandbox: creating ${USERS} users`);
    const users: ToolCaller[] = [];
    for (let i = 0; i < USERS; i++) {
      const created = await app.get(UsersService).create(actor, {
        username: `bench-sandbox-${i}`,
        password: `bench-${randomBytes(12).toString('hex')}`,
      });
      users.push({ id: created.id, role: 'user', departmentId: actor.departmentId });
    }

    const loadAtStart = loadavg()[0];
    const call = async (user: ToolCaller, command: string) => {
      const started = performance.now();
      const result = await executor.execute(
        { id: `call-${randomUUID()}`, name: 'execute', args: { command } },
        directContext(user),
      );
      const ms = performance.now() - started;
      const body = JSON.parse(result.content) as {
        exit_code?: number;
        stdout?: string;
        duration_ms?: number;
      };
      return { ms, isError: result.isError, body };
    };

    context.progress(
      `sandbox: execute "true", ${WARMUP_CALLS} warm-up + ${SEQUENTIAL_CALLS} sequential calls`,
    );
    for (let i = 0; i < WARMUP_CALLS; i++) await call(users[0], 'true');
    const callMs: number[] = [];
    const sandboxMs: number[] = [];
    for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
      const { ms, isError, body } = await call(users[0], 'true');
      if (isError || body.exit_code !== 0) throw new Error(`execute "true" failed: ${JSON.stringify(body)}`);
      callMs.push(ms);
      sandboxMs.push(body.duration_ms ?? Number.NaN);
    }

    context.progress(`sandbox: Sandbox.run("true") + dispose, ${SEQUENTIAL_CALLS} sequential runs`);
    const empty = await mkdtemp(join(dataDir, 'bench-empty-'));
    const startMs: number[] = [];
    try {
      for (let i = 0; i < WARMUP_CALLS + SEQUENTIAL_CALLS; i++) {
        const started = performance.now();
        const run = await sandbox.run({
          command: 'true',
          userData: empty,
          cwd: '/home/gem/user-data',
          skills: [],
          timeoutMs: 15_000,
          signal: new AbortController().signal,
          maxWriteBytes: 1024 * 1024,
        });
        await run.dispose();
        const ms = performance.now() - started;
        if (run.result.exitCode !== 0) throw new Error(`sandbox run failed: ${run.result.stderr}`);
        if (i >= WARMUP_CALLS) startMs.push(ms);
      }
    } finally {
      await rm(empty, { recursive: true, force: true });
    }

    const batches: ConcurrentBatch[] = [];
    for (let b = 0; b < BATCHES; b++) {
      context.progress(`sandbox: batch ${b + 1}/${BATCHES}, ${USERS * CALLS_PER_USER} concurrent calls`);
      const started = performance.now();
      const outcomes = await Promise.all(
        users.flatMap((user) => Array.from({ length: CALLS_PER_USER }, () => call(user, CONCURRENT_COMMAND))),
      );
      const wallMs = performance.now() - started;
      const samples = outcomes.map((o) => o.ms);
      batches.push({
        ...latency(samples),
        completed: outcomes.filter((o) => !o.isError && o.body.exit_code === 0 && o.body.stdout === 'done\n')
          .length,
        toolErrors: outcomes.filter((o) => o.isError).length,
        maxMs: Math.max(...samples),
        wallMs,
      });
    }

    return {
      execute: {
        ...latency(callMs),
        warmup: WARMUP_CALLS,
        targetP50Ms: TARGET_P50_MS,
        sandboxP50Ms: percentile(sandboxMs, 50),
        sandboxP99Ms: percentile(sandboxMs, 99),
      },
      sandboxStart: latency(startMs),
      concurrent: { users: USERS, perUser: CALLS_PER_USER, command: CONCURRENT_COMMAND, batches },
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
    };
  } finally {
    await app.close();
    await database.drop();
  }
}
