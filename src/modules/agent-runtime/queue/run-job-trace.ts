import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Link,
} from '@opentelemetry/api';
import { activeTraceparent, contextFromCarrier, inSpan } from '../../../observability/tracing/index.js';
import type { QueuedRun } from '../runs/runs.repository.js';
import { AGENT_RUNS_QUEUE, type AgentRunJob } from './agent-runs.queue.js';

/** Span attributes of the runs queue (OpenTelemetry's messaging conventions). */
export const RUN_QUEUE_ATTRIBUTES = {
  'messaging.system': 'bullmq',
  'messaging.destination.name': AGENT_RUNS_QUEUE,
} as const;

/**
 * The trace a run's jobs belong to: that of the request that last resumed it, else of what created it
 * (a request, a parent run's tool call, a schedule's firing); a new trace for a run stored without one.
 * Never the dispatcher's own: a finishing run or the reconciler enqueues runs that are not its work.
 */
function runContext(run: QueuedRun): Context {
  const traceparent = run.resumeTraceparent ?? run.originTraceparent;
  return traceparent === null ? ROOT_CONTEXT : contextFromCarrier({ traceparent });
}

/** The context a job's execution continues: its `traceparent`'s, or a new trace. */
export function jobTraceContext(job: AgentRunJob): Context {
  return job.traceparent === undefined ? ROOT_CONTEXT : contextFromCarrier({ traceparent: job.traceparent });
}

/** The dispatcher's own span, as a link, when it is another trace's (the reconciler, a finishing run). */
function dispatcherLinks(parent: Context): Link[] {
  const dispatcher = trace.getSpanContext(context.active());
  if (dispatcher === undefined || dispatcher.traceId === trace.getSpanContext(parent)?.traceId) return [];
  return [{ context: dispatcher }];
}

/**
 * Enqueues a job of `run` inside a PRODUCER span (`agent-runs publish`) in the run's trace; `enqueue`
 * gets the `traceparent` the job carries (that span's, so the execution is its child), undefined when
 * tracing is off. A throw is recorded on the span and rethrown.
 */
export async function publishRunJob<T>(
  run: QueuedRun,
  jobId: string,
  attributes: Attributes,
  enqueue: (traceparent: string | undefined) => Promise<T>,
): Promise<T> {
  const parent = runContext(run);
  return inSpan(
    `${AGENT_RUNS_QUEUE} publish`,
    {
      kind: SpanKind.PRODUCER,
      parent,
      links: dispatcherLinks(parent),
      attributes: {
        ...RUN_QUEUE_ATTRIBUTES,
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'publish',
        'messaging.message.id': jobId,
        'yuxi.run.id': run.id,
        ...attributes,
      },
    },
    () => enqueue(activeTraceparent() ?? undefined),
  );
}
