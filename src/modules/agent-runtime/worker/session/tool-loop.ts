import { ToolMessage, type AIMessage } from '@langchain/core/messages';
import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { ToolCallResult } from '../../../tools/index.js';
import type { NewRunEvent } from '../../events/run-event.js';
import type { NewMessage } from '../../messages/messages.repository.js';
import { ASK_USER_QUESTION } from '../../questions/ask-user-question.tool.js';
import { RunsErrors } from '../../runs/runs.errors.js';
import { SUBAGENT_AWAIT } from '../../subagents/subagent-tool-schemas.js';
import { askTurnQuestions } from './question-interrupt.js';
import { awaitTurnSubagents } from './subagent-await.js';
import { isErrorContent, skillActivatedBy } from './skill-activation.js';
import type { TurnDecisions } from '../../approvals/approval-interrupt.js';
import type { ModelToolCall, SessionScope } from './session-scope.js';
import { TurnApproval } from './turn-approval.js';

/**
 * The id of the tool message answering a tool call: the same on every attempt of the run (the
 * requesting assistant message comes from the checkpoint with its id). Keyed by that message too,
 * because providers may reuse a tool call id in a later turn of the same run.
 */
export function toolMessageId(runId: string, requestId: string, toolCallId: string): string {
  const hex = createHash('sha256').update(`${runId}:${requestId}:${toolCallId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The tool calls of one assistant message, in order, each through the ToolExecutor (questions through
 * one interrupt), each result recorded (lease-fenced) and emitted. A result an earlier attempt stored
 * is reused, not executed again. `decisions` are the person's, when calls of the turn needed one.
 * Stops at a safe point between calls if the run was asked to.
 */
export async function runTools(
  scope: SessionScope,
  request: AIMessage,
  decisions: TurnDecisions | null,
): Promise<{ messages: ToolMessage[]; activatedSkills: string[] }> {
  const { runId, threadId } = scope.init;
  const calls = request.tool_calls ?? [];
  const ids = calls.map((call) => toolMessageId(runId, request.id ?? '', call.id!));
  // The first execution of a run has stored none yet: the lookup is a query per tool step saved.
  const found = scope.init.resumed ? await scope.deps.messages.findByIds(ids) : [];
  const stored = new Map(found.map((row) => [row.id, row]));
  const approval = await TurnApproval.load(scope, decisions);
  const execute = async (call: ModelToolCall) =>
    (await approval.claim(call)) ?? executeCall(scope, call, approval);
  // Calls past the cap are answered (every call gets its ToolMessage) but never executed.
  const limit = scope.deps.maxToolCallsPerTurn;
  const allowed = calls.slice(0, limit);
  const results: ToolMessage[] = [];
  const activated: string[] = [];
  let answered: Map<string, ToolCallResult> | null = null;
  let awaited: Map<string, ToolCallResult> | null = null;
  const isStored = (position: number) => stored.has(ids[position]);
  for (const [index, call] of calls.entries()) {
    scope.safePoint();
    const id = ids[index];
    const previous = stored.get(id);
    if (previous !== undefined) {
      // Executed by an earlier attempt of this run whose checkpoint was not written: not run twice.
      results.push(
        new ToolMessage({ id, content: previous.content, tool_call_id: call.id!, name: call.name }),
      );
      const reused = skillActivatedBy(scope.init.snapshot, call, isErrorContent(previous.content));
      if (reused !== null) activated.push(reused);
      continue;
    }
    let result: ToolCallResult;
    if (index >= limit) {
      result = pastTurnCap(call, limit);
    } else if (call.name === ASK_USER_QUESTION) {
      answered ??= await askTurnQuestions(allowed, isStored, execute);
      result = answered.get(call.id!)!;
    } else if (call.name === SUBAGENT_AWAIT) {
      const asks = allowed.some((other) => other.name === ASK_USER_QUESTION);
      awaited ??= await awaitTurnSubagents(allowed, isStored, execute, !asks);
      result = awaited.get(call.id!)!;
    } else {
      result = await execute(call);
    }
    const { content, isError } = result;
    const skill = skillActivatedBy(scope.init.snapshot, call, result.isError);
    if (skill !== null) activated.push(skill);
    const events: NewRunEvent[] = [
      {
        type: 'tool_result',
        payload: { tool_call_id: call.id, name: call.name, content, is_error: isError },
      },
    ];
    const message: NewMessage = {
      id,
      threadId,
      runId,
      role: 'tool',
      content,
      toolCallId: call.id!,
      name: call.name,
    };
    // Each result is stored as soon as it is known (a re-executed step reuses it), the step's last one
    // with the checkpoint that follows the step (the results are in it).
    if (index < calls.length - 1) await scope.emit(events, message);
    else await scope.emitWithCheckpoint(events, message);
    results.push(
      new ToolMessage({
        id,
        content,
        tool_call_id: call.id!,
        name: call.name,
        status: isError ? 'error' : 'success',
      }),
    );
  }
  scope.activate(activated);
  return { messages: results, activatedSkills: activated };
}

/** The answer to a call past `RUN_MAX_TOOL_CALLS_PER_TURN`: a tool error, the call not executed. */
function pastTurnCap(call: ModelToolCall, limit: number): ToolCallResult {
  const { code, message, details } = RunsErrors.tooManyToolCalls(limit);
  return {
    toolCallId: call.id!,
    name: call.name,
    content: JSON.stringify({ error: { code, message, details } }),
    isError: true,
    outcome: 'refused',
    errorCode: code,
  };
}

/** Its lines carry the run's log fields (`RunLogContext`). */
const logger = new Logger('RunSession');

async function executeCall(
  scope: SessionScope,
  call: ModelToolCall,
  turn: TurnApproval,
): Promise<ToolCallResult> {
  logger.debug({ tool_call_id: call.id, tool: call.name }, 'tool call');
  return scope.deps.executor.execute(
    { id: call.id!, name: call.name, args: turn.argsOf(call) },
    // A resumed run re-enters at its tools step: it gets what its model call would have shown.
    { ...scope.init.toolContext, approval: turn.approval, visibleTools: await scope.visibleToolNames() },
  );
}
