import { interrupt } from '@langchain/langgraph';
import type { ToolCallResult } from '../../../tools/index.js';
import { isTerminal, type RunStatus } from '../../runs/run-status.js';
import { DEFAULT_AWAIT_SECONDS, SUBAGENT_AWAIT } from '../../subagents/subagent-tool-schemas.js';
import type { ModelToolCall } from './session-scope.js';

/**
 * What the graph is interrupted with while the parent waits for its children: stored in the
 * checkpoint. The executor parks the run (`waiting`, lease released) until every one of `run_ids` has
 * ended or `until` (ISO time) passed, then the run is queued and resumes here.
 */
export interface AwaitInterrupt {
  kind: 'subagent_await';
  tool_call_id: string;
  run_ids: string[];
  until: string;
}

export const isAwaitInterrupt = (value: unknown): value is AwaitInterrupt =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'subagent_await';

/**
 * Every `subagent_await` call of the turn not answered yet: each is checked through the executor (a
 * foreign run id is its own tool error; an ended child gives its result). When some children are still
 * active the graph is interrupted once for all of them (no write before it): the parent gives up its
 * worker slot while they run. On resume this node runs again from its first line: the
 * calls are checked again (ended children give their results) and `interrupt` returns at once; a child
 * still active then is past the deadline and gets `timed_out`. The turn waits until its earliest
 * deadline. `mayWait` is false in a turn that also asks the user (one interrupt per node run): its
 * awaits answer at once, timed out if the child is active.
 */
export async function awaitTurnSubagents(
  calls: ModelToolCall[],
  isStored: (index: number) => boolean,
  execute: (call: ModelToolCall) => Promise<ToolCallResult>,
  mayWait: boolean,
): Promise<Map<string, ToolCallResult>> {
  const results = new Map<string, ToolCallResult>();
  const active: { toolCallId: string; runId: string; status: RunStatus; timeoutS: number }[] = [];
  for (const [index, call] of calls.entries()) {
    if (call.name !== SUBAGENT_AWAIT || isStored(index)) continue;
    const result = await execute(call);
    results.set(call.id!, result);
    if (result.isError) continue;
    const checked = JSON.parse(result.content) as { run_id: string; status: RunStatus };
    if (isTerminal(checked.status)) continue;
    const timeout = (call.args as { timeout_s?: number }).timeout_s ?? DEFAULT_AWAIT_SECONDS;
    active.push({ toolCallId: call.id!, runId: checked.run_id, status: checked.status, timeoutS: timeout });
  }
  if (active.length === 0) return results;
  if (mayWait) {
    const waitS = Math.min(...active.map((wait) => wait.timeoutS));
    interrupt<AwaitInterrupt, unknown>({
      kind: 'subagent_await',
      tool_call_id: active[0].toolCallId,
      run_ids: [...new Set(active.map((wait) => wait.runId))],
      until: new Date(Date.now() + waitS * 1000).toISOString(),
    });
  }
  for (const wait of active) {
    const content = JSON.stringify({ run_id: wait.runId, status: wait.status, timed_out: true });
    results.set(wait.toolCallId, { ...results.get(wait.toolCallId)!, content });
  }
  return results;
}
