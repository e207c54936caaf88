import { randomUUID } from 'node:crypto';
import type { TestContext } from '../../support/test-app';

export interface MarkRow {
  id: string;
  run_id: string;
  tool_call_id: string;
  agent_slug: string;
  user_id: string;
  thread_id: string;
  reason: string;
  created_at: Date;
}

/** The marks a run saved, oldest first, read straight from the table. */
export function marksOfRun(ctx: TestContext, runId: string): Promise<MarkRow[]> {
  return ctx.dataSource.query<MarkRow[]>(
    `SELECT id, run_id, tool_call_id, agent_slug, user_id, thread_id, reason, created_at
       FROM improvement_marks WHERE run_id = $1 ORDER BY created_at, id`,
    [runId],
  );
}

export interface MarkSeed {
  userId: string;
  agentSlug?: string;
  runId?: string;
  threadId?: string;
  toolCallId?: string;
  reason?: string;
  /** How long ago it was created (PostgreSQL interval text, e.g. `400 days`). */
  age?: string;
}

/** A mark row as the tool would have written it, dated in the past when `age` is given. */
export async function insertMark(ctx: TestContext, seed: MarkSeed): Promise<MarkRow> {
  const [row] = await ctx.dataSource.query<MarkRow[]>(
    `INSERT INTO improvement_marks (run_id, tool_call_id, agent_slug, user_id, thread_id, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() - $7::interval)
     RETURNING id, run_id, tool_call_id, agent_slug, user_id, thread_id, reason, created_at`,
    [
      seed.runId ?? randomUUID(),
      seed.toolCallId ?? `call_${randomUUID()}`,
      seed.agentSlug ?? 'default-chatbot',
      seed.userId,
      seed.threadId ?? randomUUID(),
      seed.reason ?? 'a lead',
      seed.age ?? '0 seconds',
    ],
  );
  return row;
}
