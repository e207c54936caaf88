import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../../../observability/tracing/index.js';
import type { ScheduleOccurrenceEntity } from '../schedule-occurrence.entity.js';
import type { ScheduleEntity } from '../schedule.entity.js';

/**
 * Fires an occurrence inside a span, `schedule fire`: the run it starts (created in it, so its
 * stored trace context is this span's) has a trace even without an HTTP request. A root span when the
 * scheduler's timer fires it, a child of the request that fired it by hand otherwise. The outcome
 * (`started`, `skipped`, `failed`) and its reason are attributes.
 */
export async function inFireSpan<T extends { changes: Partial<ScheduleOccurrenceEntity> }>(
  schedule: ScheduleEntity,
  occurrence: ScheduleOccurrenceEntity,
  fire: () => Promise<T>,
): Promise<T> {
  return inSpan(
    'schedule fire',
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'yuxi.schedule.id': schedule.id,
        'yuxi.schedule.occurrence_id': occurrence.id,
        'yuxi.schedule.occurrence_kind': occurrence.kind,
        'yuxi.agent.slug': schedule.agentSlug,
      },
    },
    async (span) => {
      const outcome = await fire();
      if (span.isRecording()) {
        const { status, reason, runId } = outcome.changes;
        if (status !== undefined) span.setAttribute('yuxi.schedule.outcome', status);
        if (reason != null) span.setAttribute('yuxi.schedule.reason', reason);
        if (runId != null) span.setAttribute('yuxi.run.id', runId);
      }
      return outcome;
    },
  );
}
