import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { inSpan } from '../../../observability/tracing/index.js';
import { RUN_QUEUE_ATTRIBUTES } from '../queue/run-job-trace.js';
import type { RunEntity } from '../runs/run.entity.js';
import type { Ending } from './run-ending.js';

/** How one execution of a run ended, as its span names it (`yuxi.run.outcome`). */
export function outcomeOf(ending: Ending): string {
  switch (ending.kind) {
    case 'outcome':
      return ending.outcome.status;
    case 'waiting':
      return 'waiting';
    case 'awaiting':
      return 'awaiting_subagents';
    case 'stopped':
      // A run handed back (shutdown, an outage) or taken over (lease lost) goes on in another execution.
      return ending.reason === 'cancel' ? 'cancelled' : ending.reason;
  }
}

/**
 * Runs one claimed execution of `run` inside its span, `run <agent slug>` (CONSUMER), a child of the
 * active context (the job's `traceparent`): the model and tool calls the run makes are its children.
 * It starts at `claimStarted`, so the claim is part of it; a job that claims nothing has no span.
 * `execute` returns the ending, which the span records; an execution that failed is an error.
 */
export async function inRunSpan(
  run: RunEntity,
  claimStarted: Date,
  execute: () => Promise<Ending | null>,
): Promise<void> {
  await inSpan(
    `run ${run.agentSlug}`,
    {
      kind: SpanKind.CONSUMER,
      startTime: claimStarted,
      attributes: {
        ...RUN_QUEUE_ATTRIBUTES,
        'messaging.operation.type': 'process',
        'yuxi.run.id': run.id,
        'yuxi.thread.id': run.threadId,
        'yuxi.agent.id': run.agentId ?? undefined,
        'yuxi.agent.slug': run.agentSlug,
        'yuxi.run.attempt': run.attempts,
        'yuxi.run.parent_run_id': run.parentRunId ?? undefined,
      },
    },
    async (span) => {
      const ending = await execute();
      if (ending !== null) recordEnding(span, ending);
    },
  );
}

function recordEnding(span: Span, ending: Ending): void {
  if (!span.isRecording()) return;
  span.setAttribute('yuxi.run.outcome', outcomeOf(ending));
  if (ending.kind === 'outcome' && ending.outcome.status === 'failed') {
    const code = ending.outcome.error?.code ?? 'failed';
    span.setAttribute('error.type', code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  }
}
