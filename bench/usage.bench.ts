import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createBenchDatabase, startApp, type BenchContext } from './support/bench-context.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, databaseUrl } from './support/bench-env.js';
import { httpJson, httpRequest } from './support/http.js';
import { percentile } from './support/stats.js';

const CALLS = 1_000_000;
const USERS = 200;
const DAYS = 90;
const AGENTS = 30;
const REQUESTS = 100;
const WARMUP = 10;
const GROUPS = ['user', 'agent', 'model', 'day'] as const;

interface Latency {
  p50Ms: number;
  p99Ms: number;
  items: number;
}

export interface UsageFigures {
  calls: number;
  users: number;
  days: number;
  dailyRows: number;
  seedSeconds: number;
  requestsPerSeries: number;
  /** By window (`all`: no since/until; `window`: 30 days starting and ending mid-day), viewer and grouping. */
  series: Record<'all' | 'window', Record<'admin' | 'user', Record<(typeof GROUPS)[number], Latency>>>;
  loadAverage: { start: number; end: number };
}

/**
 * The usage report (`npm run bench:usage`, a real server as a child process): 1,000,000 model calls of
 * 200 users over 90 days (each user on 3 of 30 agents and 2 of 4 models), inserted with
 * `generate_series` and rolled up per day as the reply statement does, then `GET /api/usage` over HTTP,
 * 100 sequential requests per grouping (after 10 unmeasured), as an admin (everyone) and as one of the
 * users (their own calls), over the whole history and over a 30-day window whose first and last days
 * are partial (so the call rows are read for them).
 */
export async function runUsageBench(context: BenchContext): Promise<UsageFigures> {
  const database = await createBenchDatabase();
  const { server } = await startApp(context, database, 'app server (usage)');
  const client = new Client({ connectionString: databaseUrl(database.name) });
  await client.connect();
  try {
    const base = server.baseUrl;
    const login = (username: string, password: string) =>
      httpJson<{ access_token: string }>(`${base}/api/auth/token`, {
        method: 'POST',
        body: { username, password },
        expectStatus: 200,
      });
    const admin = { authorization: `Bearer ${(await login(ADMIN_USERNAME, ADMIN_PASSWORD)).access_token}` };
    const password = 'bench-user-password-1';
    const user = await httpJson<{ id: string }>(`${base}/api/users`, {
      method: 'POST',
      headers: admin,
      body: { username: 'bench-usage-user', password },
      expectStatus: 201,
    });
    const viewer = { authorization: `Bearer ${(await login('bench-usage-user', password)).access_token}` };

    context.progress(`usage: inserting ${CALLS} model calls and their daily roll-up`);
    const seedStarted = performance.now();
    await client.query(
      `INSERT INTO model_usage (id, run_id, thread_id, user_id, agent_id, model, purpose, input_tokens,
                                output_tokens, cached_tokens, created_at)
       SELECT gen_random_uuid(), md5('run' || (g / 5))::uuid, md5('thread' || (g / 20))::uuid,
              CASE WHEN u = 0 THEN $1::uuid ELSE md5('user' || u)::uuid END,
              md5('agent' || ((u * 7 + (g / 1000) % 3) % $2))::uuid,
              (ARRAY['gpt-4o', 'gpt-4o-mini', 'deepseek-chat', 'qwen-max'])[1 + (u + (g / 13) % 2) % 4],
              CASE WHEN g % 50 = 0 THEN 'summary' ELSE 'agent' END,
              500 + (g * 37) % 4000, 50 + (g * 13) % 800, (g * 11) % 500,
              now() - make_interval(secs => g * ($3 * 86400.0 / $4))
         FROM generate_series(1, $4) AS g, LATERAL (SELECT g % $5 AS u) AS who`,
      [user.id, AGENTS, DAYS, CALLS, USERS],
    );
    await client.query(
      `INSERT INTO model_usage_daily (day, user_id, agent_id, model, input_tokens, output_tokens, cached_tokens, calls)
       SELECT (created_at AT TIME ZONE 'UTC')::date, user_id, agent_id, model, sum(input_tokens),
              sum(output_tokens), sum(cached_tokens), count(*)
         FROM model_usage GROUP BY 1, 2, 3, 4`,
    );
    await client.query('VACUUM (ANALYZE) model_usage, model_usage_daily');
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const [{ n: dailyRows }] = (
      await client.query<{ n: number }>('SELECT count(*)::int AS n FROM model_usage_daily')
    ).rows;

    const now = Date.now();
    const window = new URLSearchParams({
      since: new Date(now - 31 * 86_400_000 + 13 * 3_600_000 + 37 * 60_000).toISOString(),
      until: new Date(now - 86_400_000 - 5 * 3_600_000).toISOString(),
    }).toString();
    const measure = async (headers: Record<string, string>, query: string): Promise<Latency> => {
      const url = `${base}/api/usage?${query}&limit=200`;
      const samples: number[] = [];
      let items = 0;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const started = performance.now();
        const res = await httpRequest(url, { headers });
        const ms = performance.now() - started;
        if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.body.slice(0, 300)}`);
        if (i >= WARMUP) samples.push(ms);
        items = (JSON.parse(res.body) as { items: unknown[] }).items.length;
      }
      return { p50Ms: percentile(samples, 50), p99Ms: percentile(samples, 99), items };
    };
    const loadAtStart = loadavg()[0];
    const series = { all: {}, window: {} } as UsageFigures['series'];
    for (const [span, range] of [
      ['all', ''],
      ['window', `&${window}`],
    ] as const) {
      series[span] = { admin: {}, user: {} } as UsageFigures['series']['all'];
      for (const [who, headers] of [
        ['admin', admin],
        ['user', viewer],
      ] as const) {
        series[span][who] = {} as UsageFigures['series']['all']['admin'];
        for (const group of GROUPS) {
          context.progress(`usage: ${span}, ${who}, group_by=${group}`);
          series[span][who][group] = await measure(headers, `group_by=${group}${range}`);
        }
      }
    }
    return {
      calls: CALLS,
      users: USERS,
      days: DAYS,
      dailyRows,
      seedSeconds,
      requestsPerSeries: REQUESTS,
      series,
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
    };
  } catch (error) {
    const output = server.capturedOutput.trim();
    if (output !== '' && error instanceof Error) error.message += `\n--- server output ---\n${output}`;
    throw error;
  } finally {
    await client.end();
    await server.stop();
    await database.drop();
  }
}

export function usageLines(f: UsageFigures): string[] {
  const lines = [
    `Usage report: ${f.calls} calls of ${f.users} users over ${f.days} days (${f.dailyRows} daily roll-up rows), ` +
      `seeded in ${f.seedSeconds.toFixed(1)} s; GET /api/usage over HTTP, ${f.requestsPerSeries} sequential ` +
      `requests per line (target p99 < 50 ms); load average ${f.loadAverage.start.toFixed(1)} → ` +
      `${f.loadAverage.end.toFixed(1)}`,
  ];
  for (const span of ['all', 'window'] as const)
    for (const who of ['admin', 'user'] as const)
      for (const group of GROUPS) {
        const l = f.series[span][who][group];
        lines.push(
          `  ${span === 'all' ? 'all time' : '30-day window, partial first/last days'}, ${who}, ` +
            `group_by=${group}: p50 ${l.p50Ms.toFixed(2)} ms, p99 ${l.p99Ms.toFixed(2)} ms (${l.items} items)`,
        );
      }
  return lines;
}
