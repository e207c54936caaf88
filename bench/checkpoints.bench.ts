import { Queue } from 'bullmq';
import pg from 'pg';
import type { BenchContext } from './support/bench-context.js';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  BENCH_REDIS_PREFIX,
  BENCH_REDIS_URL,
  databaseUrl,
} from './support/bench-env.js';
import { threeToolCalls } from './support/fake-model-server.js';
import { httpJson } from './support/http.js';
import { startSplitService } from './support/split-service.js';
import { readRunEvents } from './support/sse-reader.js';

export const CHECKPOINT_RUNS = Number(process.env.BENCH_CHECKPOINT_RUNS ?? 1000);
/** Runs per thread: a thread's later runs build on its history, as a conversation does. */
export const RUNS_PER_THREAD = 10;
const CLIENTS = 10;
const TABLES = ['checkpoints', 'checkpoint_writes', 'checkpoint_blobs'] as const;
type Table = (typeof TABLES)[number];

export interface TableSize {
  rows: number;
  /** The rows' own bytes (sum of pg_column_size): what the table holds, whatever VACUUM has reclaimed. */
  bytes: number;
}

export interface CheckpointFigures {
  runs: number;
  threads: number;
  toolCallsPerRun: number;
  /** Per 1,000 runs, as the tables hold them with no pruning (what every deployment kept until now). */
  beforePruning: Record<Table, TableSize>;
  /** Per 1,000 runs, once the maintenance job has pruned. */
  afterPruning: Record<Table, TableSize>;
  pruneJob: { ms: number; result: unknown };
}

async function tableSizes(db: pg.Client, runs: number): Promise<Record<Table, TableSize>> {
  const sizes = {} as Record<Table, TableSize>;
  for (const table of TABLES) {
    const { rows } = await db.query<{ rows: string; bytes: string | null }>(
      `SELECT count(*) AS rows, sum(pg_column_size(t.*)) AS bytes FROM langgraph.${table} t`,
    );
    const per1000 = (value: string | null) => (Number(value ?? 0) * 1000) / runs;
    sizes[table] = { rows: per1000(rows[0].rows), bytes: per1000(rows[0].bytes) };
  }
  return sizes;
}

/**
 * The checkpoint tables per 1,000 runs of three tool calls each (10 runs per thread, 10 clients), on
 * the deployed split service, before and after the maintenance job `checkpoints.prune` has run.
 */
export async function runCheckpointsBench(context: BenchContext): Promise<CheckpointFigures> {
  const service = await startSplitService(
    context,
    threeToolCalls('write_file', { file_path: 'bench.txt', content: 'bench' }),
    10,
    // The bench triggers the job itself, once every run is done.
    { CHECKPOINT_PRUNE_INTERVAL_SECONDS: '86400' },
  );
  const db = new pg.Client({ connectionString: databaseUrl(service.database.name) });
  await db.connect();
  const queue = new Queue('maintenance', {
    connection: { url: BENCH_REDIS_URL },
    prefix: `${BENCH_REDIS_PREFIX}:bull`,
  });
  try {
    const base = service.api.baseUrl;
    const { access_token: token } = await httpJson<{ access_token: string }>(`${base}/api/auth/token`, {
      method: 'POST',
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      expectStatus: 200,
    });
    const headers = { authorization: `Bearer ${token}` };
    const threadCount = Math.ceil(CHECKPOINT_RUNS / RUNS_PER_THREAD);
    const threads: string[] = [];
    for (let i = 0; i < threadCount; i++)
      threads.push(
        (
          await httpJson<{ id: string }>(`${base}/api/threads`, {
            method: 'POST',
            headers,
            body: { agent_slug: 'default-chatbot' },
            expectStatus: 201,
          })
        ).id,
      );
    // Client c takes threads c, c + 10, …; one run at a time per thread (a thread runs one run at once).
    let done = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let round = 0; round < RUNS_PER_THREAD; round++)
          for (let t = client; t < threadCount; t += CLIENTS) {
            if (round * threadCount + t >= CHECKPOINT_RUNS) continue;
            const run = await httpJson<{ run_id: string; stream_url: string }>(
              `${base}/api/threads/${threads[t]}/runs`,
              {
                method: 'POST',
                headers,
                body: { input: 'Write the bench file three times.' },
                expectStatus: 202,
              },
            );
            const read = await readRunEvents(`${base}${run.stream_url}`, token);
            if (!read.ended || read.events.at(-1)?.type !== 'done')
              throw new Error(`run ${run.run_id} did not end`);
            if (++done % 100 === 0) context.progress(`checkpoints: ${done}/${CHECKPOINT_RUNS} runs`);
          }
      }),
    );
    const beforePruning = await tableSizes(db, CHECKPOINT_RUNS);
    const started = performance.now();
    const job = await queue.add('checkpoints.prune', {});
    let state = await job.getState();
    while (state !== 'completed' && state !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await job.getState();
    }
    const ms = performance.now() - started;
    const finished = await queue.getJob(job.id!);
    if (state === 'failed') throw new Error(`the prune job failed: ${finished?.failedReason}`);
    const afterPruning = await tableSizes(db, CHECKPOINT_RUNS);
    return {
      runs: CHECKPOINT_RUNS,
      threads: threadCount,
      toolCallsPerRun: 3,
      beforePruning,
      afterPruning,
      pruneJob: { ms, result: finished?.returnvalue },
    };
  } finally {
    await queue.close();
    await db.end();
    await service.stop();
  }
}
