import { performance } from 'node:perf_hooks';
import type { BenchContext } from './support/bench-context.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from './support/bench-env.js';
import type { ChatMessage, Reply } from './support/fake-model-server.js';
import { httpRequest } from './support/http.js';
import { startSplitService } from './support/split-service.js';
import { readRunEvents } from './support/sse-reader.js';
import { median } from './support/stats.js';

/** How long each child's model call takes: the slowest child sets the expected wall time. */
export const CHILD_MS = { a: 1_000, b: 1_500 } as const;
const SLOWEST_MS = Math.max(CHILD_MS.a, CHILD_MS.b);
const SAMPLES = 5;
/** Two slots: a parent holding its slot while it awaits would leave one for two children. */
const WORKER_CONCURRENCY = 2;

export interface SubagentFigures {
  samples: number;
  workerConcurrency: number;
  childModelMs: { a: number; b: number };
  /** POST → `done` of a run whose one model call takes as long as the slowest child's. */
  slowestChildAloneMs: number;
  /** POST → `done` of a parent that starts both children, then awaits both. */
  parentWithTwoChildrenMs: number;
  ratio: number;
}

const text = (message: ChatMessage | undefined) =>
  typeof message?.content === 'string' ? message.content : '';

/** The parent starts both children in one turn, awaits both in the next, then answers. */
function respond(messages: ChatMessage[]): Reply {
  const input = text(messages.find((m) => m.role === 'user'));
  if (input === 'child a') return { text: 'a done', delayMs: CHILD_MS.a };
  if (input === 'child b' || input === 'alone') return { text: 'b done', delayMs: CHILD_MS.b };
  const results = messages
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(text(m)) as { run_id: string });
  if (results.length === 0)
    return {
      toolCalls: ['child a', 'child b'].map((description) => ({
        name: 'subagent_start',
        args: { description, subagent_slug: 'general-purpose' },
      })),
    };
  if (results.length === 2)
    return { toolCalls: results.map((r) => ({ name: 'subagent_await', args: { run_id: r.run_id } })) };
  return { text: 'both done' };
}

async function post<T>(baseUrl: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await httpRequest(`${baseUrl}${path}`, {
    method: 'POST',
    body,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    timeoutMs: 30_000,
  });
  if (res.status >= 300) throw new Error(`POST ${path} → ${res.status}: ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as T;
}

/** One run from POST to its `done` frame over SSE. */
async function timedRun(baseUrl: string, token: string, input: string): Promise<number> {
  const thread = await post<{ id: string }>(
    baseUrl,
    '/api/threads',
    { agent_slug: 'default-chatbot' },
    token,
  );
  const started = performance.now();
  const run = await post<{ run_id: string; stream_url: string }>(
    baseUrl,
    `/api/threads/${thread.id}/runs`,
    { input },
    token,
  );
  const read = await readRunEvents(`${baseUrl}${run.stream_url}`, token);
  const elapsed = performance.now() - started;
  const row = await httpRequest(`${baseUrl}/api/runs/${run.run_id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const status = (JSON.parse(row.body) as { status?: string }).status;
  if (read.events.at(-1)?.type !== 'done' || status !== 'completed')
    throw new Error(`run "${input}" ended ${status}: ${read.events.map((e) => e.type).join(',')}`);
  return elapsed;
}

/**
 * Issue 14's figure: a parent that starts two children and awaits both, against one run as slow as
 * the slowest child, through API, BullMQ and one worker process with two slots. Close to 1× means the
 * children ran in parallel and the awaiting parent held no slot.
 */
export async function runSubagentsBench(context: BenchContext): Promise<SubagentFigures> {
  const service = await startSplitService(context, respond, WORKER_CONCURRENCY);
  const { api } = service;
  try {
    const { access_token: token } = await post<{ access_token: string }>(api.baseUrl, '/api/auth/token', {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
    });
    context.progress(`subagents: ${SAMPLES} × (one ${SLOWEST_MS} ms run, then a parent with two children)`);
    const alone: number[] = [];
    const parent: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      alone.push(await timedRun(api.baseUrl, token, 'alone'));
      parent.push(await timedRun(api.baseUrl, token, 'research with two subagents'));
    }
    const slowestChildAloneMs = median(alone);
    const parentWithTwoChildrenMs = median(parent);
    return {
      samples: SAMPLES,
      workerConcurrency: WORKER_CONCURRENCY,
      childModelMs: { ...CHILD_MS },
      slowestChildAloneMs,
      parentWithTwoChildrenMs,
      ratio: parentWithTwoChildrenMs / slowestChildAloneMs,
    };
  } finally {
    await service.stop();
  }
}
