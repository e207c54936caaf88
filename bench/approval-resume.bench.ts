import { performance } from 'node:perf_hooks';
import { BenchApi } from './support/bench-api.js';
import type { BenchContext } from './support/bench-context.js';
import type { ChatMessage, Reply } from './support/fake-model-server.js';
import { OpenRunStream } from './support/open-run-stream.js';
import type { LiveFrame } from './support/sse-reader.js';
import { startSplitService } from './support/split-service.js';
import { percentile } from './support/stats.js';

const WARMUP = 3;
const SAMPLES = 30;
const WORKER_CONCURRENCY = 10;
const WRITE = { name: 'write_file', args: { file_path: 'approved.txt', content: 'approved' } };
const ASK_WRITES = { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] };

export interface LatencySpread {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface ApprovalResumeFigures {
  samples: number;
  warmup: number;
  workerConcurrency: number;
  /** `POST /api/runs/:id/approvals` until its 200 arrived. */
  post: LatencySpread;
  /** Just before the POST until the call's `tool_result` frame arrived on the open stream. */
  postToToolResult: LatencySpread;
  /** Just before the POST until the run's `done` frame (the model's second turn included). */
  postToDone: LatencySpread;
  /** p50 of when each frame of the resumed run arrived, in ms after the POST started. */
  stagesP50Ms: { queued: number; running: number; toolResult: number; done: number };
}

interface Sample {
  postMs: number;
  queuedMs: number;
  runningMs: number;
  toolResultMs: number;
  doneMs: number;
}

/** One `write_file` call, then (once its result is in the conversation) a short answer. */
function respond(messages: ChatMessage[]): Reply {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return messages.slice(lastUser).some((m) => m.role === 'tool')
    ? { text: 'Written.' }
    : { toolCalls: [WRITE] };
}

const spread = (values: number[]): LatencySpread => ({
  p50Ms: percentile(values, 50),
  p95Ms: percentile(values, 95),
  maxMs: Math.max(...values),
});

const isStatus = (status: string, afterSeq: number) => (frame: LiveFrame) =>
  frame.seq > afterSeq && frame.type === 'status' && frame.payload.status === status;

/**
 * One run parked at the approval of its `write_file` call, its stream open since the run started; then
 * the owner's approval, timed until the resumed run's frames arrive on that stream.
 */
async function approvedRun(api: BenchApi, agentSlug: string): Promise<Sample> {
  const thread = await api.post<{ id: string }>('/api/threads', { agent_slug: agentSlug }, 201);
  const run = await api.startRun(thread.id, 'Write the approved file.');
  const stream = new OpenRunStream(`${api.baseUrl}${run.stream_url}`, api.bearer);
  const waiting = await stream.next((frame) => frame.type === 'waiting');
  const [approval] = waiting.payload.approvals as { tool_call_id: string }[];
  const after = (frame: LiveFrame) => frame.seq > waiting.seq;

  const started = performance.now();
  await api.post(
    `/api/runs/${run.run_id}/approvals`,
    { decisions: { [approval.tool_call_id]: { decision: 'approve' } } },
    200,
  );
  const answered = performance.now();
  const [queued, running, toolResult, done] = await Promise.all([
    stream.next(isStatus('queued', waiting.seq)),
    stream.next(isStatus('running', waiting.seq)),
    stream.next((frame) => after(frame) && frame.type === 'tool_result'),
    stream.next((frame) => after(frame) && frame.type === 'done'),
  ]);
  await stream.ended;
  const completed = stream.received.some(isStatus('completed', waiting.seq));
  if (toolResult.payload.is_error !== false || !completed)
    throw new Error(
      `run ${run.run_id} did not write and complete: ${JSON.stringify(toolResult.payload)}, ` +
        stream.received.map((f) => `${f.seq}:${f.type}`).join(','),
    );
  return {
    postMs: answered - started,
    queuedMs: queued.arrivedAt - started,
    runningMs: running.arrivedAt - started,
    toolResultMs: toolResult.arrivedAt - started,
    doneMs: done.arrivedAt - started,
  };
}

/**
 * How long an approved call waits for its result once the owner answers, on an idle service (API
 * process, BullMQ, one worker process, fake model). POST → `tool_result` covers the answer's
 * transaction and re-queue in the API, BullMQ handing the job to the worker, the worker's claim of the
 * run (lease), reading the checkpoint and assembling the run again, resuming the graph at the parked
 * turn, executing `write_file` (guards, approval check, audit, file write), and storing and publishing
 * the event through Redis to the API process that streams it.
 */
export async function runApprovalResumeBench(context: BenchContext): Promise<ApprovalResumeFigures> {
  const service = await startSplitService(context, respond, WORKER_CONCURRENCY);
  try {
    const api = await BenchApi.login(service.api.baseUrl);
    const { slug } = await api.post<{ slug: string }>(
      '/api/agents',
      { name: 'Approval bench', config: { tools: ['write_file'], approval: ASK_WRITES } },
      201,
    );
    context.progress(`approval resume: ${WARMUP} warm-up + ${SAMPLES} approved runs, one at a time`);
    for (let i = 0; i < WARMUP; i++) await approvedRun(api, slug);
    const samples: Sample[] = [];
    for (let i = 0; i < SAMPLES; i++) samples.push(await approvedRun(api, slug));
    const p50 = (pick: (s: Sample) => number) => percentile(samples.map(pick), 50);
    return {
      samples: SAMPLES,
      warmup: WARMUP,
      workerConcurrency: WORKER_CONCURRENCY,
      post: spread(samples.map((s) => s.postMs)),
      postToToolResult: spread(samples.map((s) => s.toolResultMs)),
      postToDone: spread(samples.map((s) => s.doneMs)),
      stagesP50Ms: {
        queued: p50((s) => s.queuedMs),
        running: p50((s) => s.runningMs),
        toolResult: p50((s) => s.toolResultMs),
        done: p50((s) => s.doneMs),
      },
    };
  } finally {
    await service.stop();
  }
}
