import type { RunApproval, ToolCallResult, UserApprovalDecision } from '../../../tools/index.js';
import { ToolsErrors } from '../../../tools/index.js';
import type { TurnDecisions } from '../../approvals/approval-interrupt.js';
import type { ModelToolCall, SessionScope } from './session-scope.js';

/**
 * The person's decisions on one turn's calls, as the tool loop applies them: the executor decides
 * each call again with them (a policy tightened since still denies), an edit runs with its new
 * arguments, and a decided call runs at most once: it is recorded as started before it runs, and a
 * call found started without a stored result (its worker died) is answered, not run again.
 */
export class TurnApproval {
  private constructor(
    private readonly scope: SessionScope,
    private readonly turn: TurnDecisions | null,
    private readonly started: ReadonlySet<string>,
    readonly approval: RunApproval | undefined,
  ) {}

  static async load(scope: SessionScope, turn: TurnDecisions | null): Promise<TurnApproval> {
    const base = scope.init.toolContext.approval;
    if (turn === null || base === undefined) return new TurnApproval(scope, null, new Set(), base);
    const decisions = new Map<string, UserApprovalDecision>();
    for (const [id, submitted] of Object.entries(turn.decisions)) {
      decisions.set(id, {
        decision: submitted.decision,
        by: turn.decided_by,
        ...(submitted.message === undefined ? {} : { message: submitted.message }),
        remember: submitted.remember === 'thread',
      });
    }
    const started = await scope.deps.waitingPoints.startedCalls(scope.init.runId, turn.point_tool_call_id);
    return new TurnApproval(scope, turn, started, { ...base, decisions });
  }

  /** The arguments the call runs with: an edit's, else what the model sent. */
  argsOf(call: ModelToolCall): unknown {
    const decided = this.turn?.decisions[call.id!];
    if (decided?.decision === 'edit') return decided.args;
    return this.scope.invalidArgs.get(call.id!) ?? call.args;
  }

  /**
   * Before a call runs: for a call the person let through, its answer if an earlier attempt already
   * started it, else null once it is recorded as started (under the lease).
   */
  async claim(call: ModelToolCall): Promise<ToolCallResult | null> {
    const decided = this.turn?.decisions[call.id!];
    if (this.turn === null || decided === undefined || decided.decision === 'reject') return null;
    if (this.started.has(call.id!)) return interrupted(call);
    const { runId, leaseToken } = this.scope.init;
    await this.scope.deps.waitingPoints.markStarted(
      runId,
      this.turn.point_tool_call_id,
      call.id!,
      leaseToken,
    );
    return null;
  }
}

function interrupted(call: ModelToolCall): ToolCallResult {
  const { code, message, details } = ToolsErrors.executionInterrupted(call.name);
  return {
    toolCallId: call.id!,
    name: call.name,
    content: JSON.stringify({ error: { code, message, details } }),
    isError: true,
    outcome: 'error',
    errorCode: code,
  };
}
