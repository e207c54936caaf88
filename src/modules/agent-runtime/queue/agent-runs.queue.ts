import { z } from 'zod';

export const AGENT_RUNS_QUEUE = 'agent-runs';
export const EXECUTE_RUN_JOB = 'execute-run';

/**
 * A job names the run, and for its log lines the requests behind it: `requestId` the X-Request-Id of
 * the request that created the run, `resumeRequestId` that of the answer that resumed it. Everything
 * else is read from PostgreSQL when it executes. Jobs enqueued before the request ids existed hold only
 * `runId` and stay valid.
 */
export const agentRunJobSchema = z.object({
  runId: z.string().min(1),
  requestId: z.string().nullish(),
  resumeRequestId: z.string().nullish(),
  /**
   * The W3C `traceparent` the execution continues: the enqueue span in the trace of what created (or
   * last resumed) the run. Absent with tracing off, and in older jobs; one that is not a string is
   * ignored (the run still executes, in a trace of its own).
   */
  traceparent: z.string().max(128).optional().catch(undefined),
  /** A wake-up at a `subagent_await` deadline: the parked run is queued first if it is due. */
  awaitDeadline: z.literal(true).optional(),
});

export type AgentRunJob = z.infer<typeof agentRunJobSchema>;
