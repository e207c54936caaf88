import { getQueueToken } from '@nestjs/bullmq';
import { SpanKind } from '@opentelemetry/api';
import type { Queue } from 'bullmq';
import { AGENT_RUNS_QUEUE } from '../../../src/modules/agent-runtime/queue/agent-runs.queue';
import { auth } from '../../support/runs/run-helpers';
import { ManualClock, occurrenceRows, schedulers } from '../../support/schedules';
import { TestContext, type TestUser } from '../../support/test-app';
import { InMemoryTracing } from '../../support/tracing/in-memory-tracing';

/** A run a schedule starts has no HTTP request: its firing is the root of its trace. */
describe('a scheduled run’s trace', () => {
  let tracing: InMemoryTracing;
  let ctx: TestContext;
  let user: TestUser;

  beforeAll(async () => {
    tracing = InMemoryTracing.start();
    // No worker: the started run stays queued, its job in the queue.
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    user = await ctx.newUser();
  });

  afterAll(async () => {
    await ctx?.close();
    await tracing?.stop();
  });

  it('starts at a root span of the firing, which the run row and its job continue', async () => {
    const created = await ctx.http
      .post('/api/agents/default-chatbot/schedules')
      .set(auth(user))
      .send({ timezone: 'UTC', input: 'Daily digest', cron: '*/5 * * * *' });
    expect(created.status).toBe(201);
    const schedule = created.body as { id: string; next_run_at: string };
    const [tick] = schedulers(ctx, new ManualClock(new Date(schedule.next_run_at)), 1);
    expect(await tick.run()).toBe(1);
    const [occurrence] = await occurrenceRows(ctx, schedule.id);
    expect(occurrence.status).toBe('started');

    const fire = tracing.spans().find((span) => span.name === 'schedule fire');
    expect(fire).toBeDefined();
    expect(fire!.parentSpanContext).toBeUndefined();
    expect(fire!.kind).toBe(SpanKind.INTERNAL);
    expect(fire!.attributes).toMatchObject({
      'yuxi.schedule.id': schedule.id,
      'yuxi.schedule.occurrence_id': occurrence.id,
      'yuxi.schedule.outcome': 'started',
      'yuxi.run.id': occurrence.run_id,
    });
    const { traceId, spanId } = fire!.spanContext();

    const [row] = await ctx.dataSource.query<{ origin_traceparent: string }[]>(
      `SELECT origin_traceparent FROM runs WHERE id = $1`,
      [occurrence.run_id],
    );
    expect(row.origin_traceparent).toBe(`00-${traceId}-${spanId}-01`);
    const enqueue = tracing.spans().find((span) => span.name === 'agent-runs publish');
    expect(enqueue?.kind).toBe(SpanKind.PRODUCER);
    expect(enqueue?.parentSpanContext?.spanId).toBe(spanId);
    const job = await ctx.app.get<Queue>(getQueueToken(AGENT_RUNS_QUEUE)).getJob(occurrence.run_id!);
    expect(job?.data).toMatchObject({
      runId: occurrence.run_id,
      traceparent: `00-${traceId}-${enqueue!.spanContext().spanId}-01`,
    });
  });
});
