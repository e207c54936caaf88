import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import { auth, isTerminal, startRun, waitForStatus } from '../runs/run-helpers';
import type { TestContext, TestUser } from '../test-app';

export type Policy = { default?: 'auto' | 'ask' | 'allow'; rules?: { tool: string; decision: string }[] };

/** Starts a run and waits until it waits for the user or ends; returns its id and status. */
export async function runUntilSettled(
  ctx: TestContext,
  user: TestUser,
  threadId: string,
  input = 'go',
): Promise<{ runId: string; status: string }> {
  const { run_id: runId } = await startRun(ctx, user, threadId, { input });
  const status = await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s));
  return { runId, status };
}

export function decide(ctx: TestContext, user: TestUser, runId: string, body: Record<string, unknown>) {
  return ctx.http.post(`/api/runs/${runId}/approvals`).set(auth(user)).send(body);
}

export function waitingPoint(ctx: TestContext, user: TestUser, runId: string) {
  return ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
}

export interface AuditRow {
  tool_call_id: string;
  tool_name: string;
  outcome: string;
  error_code: string | null;
  decision: string | null;
  decided_by: string | null;
  remembered: boolean;
}

/** The run's audit rows by tool_call_id (written in batches: flushed first; one row per call expected). */
export async function auditRows(ctx: TestContext, runId: string): Promise<Record<string, AuditRow>> {
  await ctx.app.get(ToolCallAuditWriter).flush();
  const rows = await ctx.dataSource.query<AuditRow[]>(
    `SELECT tool_call_id, tool_name, outcome, error_code, decision, decided_by, remembered
       FROM tool_calls WHERE run_id = $1`,
    [runId],
  );
  const byCall: Record<string, AuditRow> = {};
  for (const row of rows) {
    // `ask_user_question` is validated before its interrupt and again when the node resumes: two rows
    // (a known gap of the questions flow, not of approval). Every other call must have one.
    if (byCall[row.tool_call_id] !== undefined && row.tool_name !== 'ask_user_question')
      throw new Error(`two audit rows for ${row.tool_call_id}`);
    byCall[row.tool_call_id] = row;
  }
  return byCall;
}
