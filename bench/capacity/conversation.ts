import { performance } from 'node:perf_hooks';
import { BenchApi } from '../support/bench-api.js';
import { readRunEvents } from '../support/sse-reader.js';

/** One conversation turn as a client sees it: POST the run, read its stream to `done`, time it. */
/** The events that carry the model's output: its first one is the client's time to first token. */
export const MODEL_OUTPUT = new Set(['message_delta', 'message', 'tool_call']);

export interface Conversation {
  completed: boolean;
  status: string | null;
  /** POST → `done` arrived. */
  runMs: number;
  /** POST → the first event carrying model output. */
  ttftMs: number | null;
  /** The type of that first event. */
  firstOutputType: string | null;
  /** Times the server ended the stream before `done` and the client reopened it. */
  reconnects: number;
  /** Frame arrival − the event's `created_at` (ms), for events created after the stream was opened. */
  deliveryMs: number[];
  error?: string;
}

/** Reconnections (`?after=<last seq>`, as an EventSource does) a stream that ends without `done` gets. */
export const MAX_RECONNECTS = 3;

/**
 * One conversation turn: POST the run, open its stream at once, read it to `done`. A stream the
 * server ends before `done` is reopened after the last event seen (counted in `reconnects`).
 */
export async function conversation(user: BenchApi, threadId: string, input: string, timeoutMs: number) {
  const started = performance.now();
  const deadline = started + timeoutMs;
  try {
    const run = await user.startRun(threadId, input);
    let firstOutput: number | null = null;
    let firstOutputType: string | null = null;
    let status: string | null = null;
    let lastSeq = 0;
    let reconnects = 0;
    const deliveryMs: number[] = [];
    for (;;) {
      const connectedAt = Date.now();
      const read = await readRunEvents(
        `${user.baseUrl}${run.stream_url}${lastSeq > 0 ? `?after=${lastSeq}` : ''}`,
        user.bearer,
        Math.max(1, deadline - performance.now()),
        (frame) => {
          lastSeq = Math.max(lastSeq, frame.seq);
          if (firstOutput === null && MODEL_OUTPUT.has(frame.type)) {
            firstOutput = frame.arrivedAt;
            firstOutputType = frame.type;
          }
          if (frame.type === 'done') status = String(frame.payload.status);
        },
      );
      for (const e of read.events)
        if (e.createdAt >= connectedAt) deliveryMs.push(e.receivedAt - e.createdAt);
      if (status !== null || !read.ended || reconnects >= MAX_RECONNECTS) break;
      reconnects++;
    }
    return {
      completed: status === 'completed',
      status,
      runMs: performance.now() - started,
      ttftMs: firstOutput === null ? null : firstOutput - started,
      firstOutputType,
      reconnects,
      deliveryMs,
    } satisfies Conversation;
  } catch (error) {
    return {
      completed: false,
      status: null,
      runMs: performance.now() - started,
      ttftMs: null,
      firstOutputType: null,
      reconnects: 0,
      deliveryMs: [],
      error: error instanceof Error ? error.message : String(error),
    } satisfies Conversation;
  }
}

export function firstErrors(results: Conversation[]): string[] {
  const errors = results
    .filter((r) => !r.completed)
    .map((r) => r.error ?? `status ${r.status ?? 'none (no done)'}`);
  return [...new Set(errors)].slice(0, 3);
}

/** The distinct last lines of the app's output (it logs at `warn`), when something went wrong. */
export function appWarnings(output: string, results: Conversation[]): string[] {
  if (results.every((r) => r.completed && r.reconnects === 0)) return [];
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  return [...new Set(lines.slice(-200).map((line) => line.slice(0, 300)))].slice(-5);
}
