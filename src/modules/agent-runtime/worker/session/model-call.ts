import { AIMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { randomUUID } from 'node:crypto';
import { DeltaBatcher } from '../../events/delta-batcher.js';
import type { NewRunEvent } from '../../events/run-event.js';
import { repairDanglingToolCalls } from '../../graph/repair-history.js';
import type { MessageToolCall } from '../../messages/message.entity.js';
import type { ChatTurn } from '../../model/chat-turn.js';
import { ModelsErrorCode } from '../../model/model.errors.js';
import type { FunctionTool } from '../../model/retrying-chat-openai.js';
import { tokenCounterFor } from '../../context/token-estimate.js';
import { RunsErrors } from '../../runs/runs.errors.js';
import { DomainError } from '../../../../common/errors/index.js';
import { fitContext, type ContextFitPorts } from '../../context/fit-context.js';
import { systemPromptOf } from '../../subagents/subagent-prompt.js';
import { callUsageOf } from '../../usage/model-call-usage.js';
import type { SessionScope } from './session-scope.js';

/** A model step's reply, and the thread's history when it was compressed for this call. */
export interface ModelStep {
  reply: AIMessage;
  /** The history that replaces the graph state's (a summary, then the turns kept), or null. */
  compacted: BaseMessage[] | null;
}

/**
 * One model call: the tools visible now are bound, the history is fitted into the model's context
 * window (`fitContext`), the reply is streamed as batched `message_delta` events, then the assistant
 * message, its tool calls and the call's usage are recorded (lease-fenced). When the provider refuses
 * the request as too long, the history is compressed and the call made once more.
 */
export async function callModel(scope: SessionScope, history: BaseMessage[]): Promise<ModelStep> {
  scope.safePoint();
  const { snapshot, signal } = scope.init;
  const visible = await scope.refreshVisibleTools();
  const tools = visible.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  const repaired = repairDanglingToolCalls(history);
  const prompt = systemPromptOf(snapshot);
  const system = prompt === '' ? [] : [new SystemMessage(prompt)];
  const ports = contextPortsOf(scope);
  let fitted = await fitContext(ports, repaired, system, tools, { force: false });
  const messageId = randomUUID();
  let streamed: StreamedTurn;
  try {
    streamed = await streamReply(scope, messageId, [...system, ...fitted.shown], tools);
  } catch (error) {
    if (!isContextOverflow(error)) throw error;
    scope.safePoint();
    fitted = await fitContext(ports, fitted.compacted ?? repaired, system, tools, { force: true });
    streamed = await streamReply(scope, messageId, [...system, ...fitted.shown], tools).catch((again) => {
      if (!isContextOverflow(again)) throw again;
      throw RunsErrors.contextOverflow({
        tokens: tokenCounterFor(scope.init.model.model).request([...system, ...fitted.shown], tools),
        window_tokens: scope.init.context.windowTokens,
        model: scope.init.model.model,
      });
    });
  }
  if (signal.aborted && streamed.lastDelta !== '') await streamed.sendDelta(streamed.lastDelta);
  scope.safePoint();
  const reply = await recordAssistant(scope, messageId, streamed.turn, streamed.lastDelta);
  return { reply, compacted: fitted.compacted };
}

/** A run's context ports: its model and limits, its lease-fenced events, its thread's workdir. */
function contextPortsOf(scope: SessionScope): ContextFitPorts {
  const { model, context, signal, runId, toolContext } = scope.init;
  return {
    model,
    context,
    signal,
    runId,
    emit: (events) => scope.emit(events),
    saveSummary: (name, text) => scope.deps.summaries.save(toolContext.user, toolContext.workdir, name, text),
    recordSummaryCall: (usage) =>
      scope.deps.usage.recordModelUsage({
        runId,
        callId: randomUUID(),
        purpose: 'summary',
        usage: callUsageOf(model.model, usage),
      }),
  };
}

const isContextOverflow = (error: unknown) =>
  error instanceof DomainError && error.code === ModelsErrorCode.CONTEXT_OVERFLOW;

interface StreamedTurn {
  turn: ChatTurn;
  lastDelta: string;
  sendDelta: (delta: string) => Promise<void>;
}

async function streamReply(
  scope: SessionScope,
  messageId: string,
  prompt: BaseMessage[],
  tools: FunctionTool[],
): Promise<StreamedTurn> {
  const { model, signal } = scope.init;
  const sendDelta = (delta: string) =>
    scope.emit([{ type: 'message_delta', payload: { message_id: messageId, delta } }]).then(() => undefined);
  const deltas = new DeltaBatcher(scope.deps.eventFlushMs, sendDelta);
  let turn: ChatTurn;
  try {
    turn = await model.streamTurn(prompt, tools, { signal, onText: (text) => deltas.push(text) });
  } catch (error) {
    await deltas.close();
    throw error;
  }
  // The text not flushed yet goes out with the message, in the same statement (on its own when the run
  // was stopped meanwhile, as a closed batcher would have sent it).
  const lastDelta = await deltas.drain();
  return { turn, lastDelta, sendDelta };
}

async function recordAssistant(
  scope: SessionScope,
  messageId: string,
  turn: ChatTurn,
  lastDelta: string,
): Promise<AIMessage> {
  const { runId, threadId } = scope.init;
  const toolCalls: MessageToolCall[] = turn.toolCalls.map((call) => ({
    id: call.id ?? `call_${randomUUID()}`,
    name: call.name,
    args: call.args,
  }));
  for (const invalid of turn.invalidToolCalls) {
    const id = invalid.id ?? `call_${randomUUID()}`;
    scope.invalidArgs.set(id, invalid.args ?? '');
    toolCalls.push({ id, name: invalid.name ?? 'unknown', args: {} });
  }
  const { content } = turn;
  const usage = callUsageOf(scope.init.model.model, turn.usage);
  // Stored with the checkpoint of this step (the reply is in it), the call's usage row and `usage` event
  // in the same statement: all written together or not at all, and a reply stored again under its
  // message id adds no second usage row.
  await scope.emitWithCheckpoint(
    [
      ...(lastDelta === ''
        ? []
        : [{ type: 'message_delta' as const, payload: { message_id: messageId, delta: lastDelta } }]),
      {
        type: 'message',
        payload: {
          message_id: messageId,
          role: 'assistant',
          content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
      },
      ...toolCalls.map((call): NewRunEvent => ({
        type: 'tool_call',
        payload: { tool_call_id: call.id, name: call.name, args: call.args },
      })),
      { type: 'usage', payload: { ...usage } },
    ],
    {
      id: messageId,
      threadId,
      runId,
      role: 'assistant',
      content,
      toolCalls: toolCalls.length > 0 ? toolCalls : null,
    },
    usage,
  );
  return new AIMessage({
    id: messageId,
    content,
    tool_calls: toolCalls.map((call) => ({ ...call, type: 'tool_call' as const })),
    usage_metadata: turn.usage,
  });
}
