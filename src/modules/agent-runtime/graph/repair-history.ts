import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { RunsErrorCode } from '../runs/runs.errors.js';

const INTERRUPTED = JSON.stringify({
  error: {
    code: RunsErrorCode.TOOL_CALL_INTERRUPTED,
    message: 'The run ended before this tool call returned.',
  },
});

/**
 * What the model is shown: every tool request followed by an answer to each of its calls. A run that
 * failed or was cancelled between a tool request and its results leaves calls without answers in the
 * thread, which providers refuse; later runs show them as interrupted.
 */
export function repairDanglingToolCalls(history: readonly BaseMessage[]): BaseMessage[] {
  const repaired: BaseMessage[] = [];
  let i = 0;
  while (i < history.length) {
    const message = history[i++];
    repaired.push(message);
    if (!AIMessage.isInstance(message) || (message.tool_calls?.length ?? 0) === 0) continue;
    const answered = new Set<string>();
    while (i < history.length && ToolMessage.isInstance(history[i])) {
      const answer = history[i++] as ToolMessage;
      answered.add(answer.tool_call_id);
      repaired.push(answer);
    }
    for (const call of message.tool_calls ?? []) {
      if (call.id === undefined || answered.has(call.id)) continue;
      repaired.push(
        new ToolMessage({ content: INTERRUPTED, tool_call_id: call.id, name: call.name, status: 'error' }),
      );
    }
  }
  return repaired;
}
