import type { AIMessage, BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { AgentSteps } from '../graph/agent-graph.js';
import { callModel, type ModelStep } from './session/model-call.js';
import { SessionScope, type RunSessionDeps, type RunSessionInit } from './session/session-scope.js';
import { reviewCalls } from './session/approval-review.js';
import { runTools } from './session/tool-loop.js';
import type { ApprovalInterrupt, TurnDecisions } from '../approvals/approval-interrupt.js';

export type { QuestionInterrupt } from './session/question-interrupt.js';

/**
 * One run's graph steps, each job in its own file under `session/`: model calls that stream deltas
 * and record the assistant message (`model-call.ts`), the calls of a reply that need a person's
 * decision (`approval-review.ts`), tool calls through the ToolExecutor that record their results
 * (`tool-loop.ts`) with the decisions applied (`turn-approval.ts`), and the questions of a turn asked
 * through one interrupt (`question-interrupt.ts`). Every write is fenced by the lease; between steps it
 * stops if the run was asked to.
 */
export class RunSession implements AgentSteps {
  private readonly scope: SessionScope;

  constructor(deps: RunSessionDeps, init: RunSessionInit) {
    this.scope = new SessionScope(deps, init);
  }

  callModel(history: BaseMessage[], activatedSkills: readonly string[]): Promise<ModelStep> {
    this.scope.activate(activatedSkills);
    return callModel(this.scope, history);
  }

  reviewCalls(reply: AIMessage): Promise<ApprovalInterrupt | null> {
    return reviewCalls(this.scope, reply);
  }

  runTools(
    request: AIMessage,
    activatedSkills: readonly string[],
    decisions: TurnDecisions | null,
  ): Promise<{ messages: ToolMessage[]; activatedSkills: string[] }> {
    this.scope.activate(activatedSkills);
    return runTools(this.scope, request, decisions);
  }
}
