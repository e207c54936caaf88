import {
  AIMessage,
  AIMessageChunk,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { interrupt } from '@langchain/langgraph';
import { Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import type { ToolExecutionContext, ToolExecutor, ToolCallResult } from '../../tools/index.js';
import type { OfferedTool } from '../assembly/run-tool-sources.js';
import type { ToolVisibility, VisibilityContext } from '../assembly/tool-visibility.js';
import type { RunConfigSnapshot } from '../assembly/run-config-snapshot.js';
import { DeltaBatcher } from '../events/delta-batcher.js';
import type { RunEvents } from '../events/run-events.js';
import type { NewRunEvent } from '../events/run-event.js';
import type { AgentSteps } from '../graph/agent-graph.js';
import { repairDanglingToolCalls } from '../graph/repair-history.js';
import type { MessagesRepository } from '../messages/messages.repository.js';
import type { MessageToolCall } from '../messages/message.entity.js';
import type { RunTransitions } from '../runs/run-transitions.js';
import { ASK_USER_QUESTION } from '../questions/ask-user-question.tool.js';
import type { NormalizedQuestion } from '../questions/question-schema.js';
import type { Answers } from '../questions/waiting-point.entity.js';
import {
  answersOfCall,
  mergeTurnQuestions,
  type AskedCall,
  type PointQuestion,
} from '../questions/turn-questions.js';

/**
 * What the graph is interrupted with when the model asks the user: stored in the checkpoint. Every
 * question of the turn's `ask_user_question` calls; `tool_call_id` is the first of those calls.
 */
export interface QuestionInterrupt {
  tool_call_id: string;
  questions: PointQuestion[];
}

type ModelToolCall = NonNullable<AIMessage['tool_calls']>[number];

/** Its lines carry the run's log fields (`RunLogContext`). */
const logger = new Logger('RunSession');

/** Thrown at a safe point once the run was asked to stop (cancel, lost lease, shutdown). */
export class RunStoppedError extends Error {
  constructor() {
    super('the run was stopped');
    this.name = 'RunStoppedError';
  }
}

export interface RunSessionDeps {
  events: RunEvents;
  messages: MessagesRepository;
  executor: ToolExecutor;
  visibility: ToolVisibility;
  transitions: RunTransitions;
  eventFlushMs: number;
}

export interface RunSessionInit {
  runId: string;
  threadId: string;
  leaseToken: string;
  snapshot: RunConfigSnapshot;
  executable: OfferedTool[];
  model: BaseChatModel;
  toolContext: Omit<ToolExecutionContext, 'visibleTools'>;
  signal: AbortSignal;
}

/**
 * The id of the tool message answering a tool call: the same on every attempt of the run (the
 * requesting assistant message comes from the checkpoint with its id). Keyed by that message too,
 * because providers may reuse a tool call id in a later turn of the same run.
 */
export function toolMessageId(runId: string, requestId: string, toolCallId: string): string {
  const hex = createHash('sha256').update(`${runId}:${requestId}:${toolCallId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function textOf(content: AIMessageChunk['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) =>
      typeof part === 'object' && part !== null && part.type === 'text' ? String(part.text) : '',
    )
    .join('');
}

/**
 * One run's graph steps: model calls that stream deltas and record the assistant message, tool calls
 * through the ToolExecutor that record their results. Every write is fenced by the lease; between
 * steps it stops if the run was asked to.
 */
export class RunSession implements AgentSteps {
  /** What the model was shown in its latest call (null until a call in this session). */
  private visibleTools: ReadonlySet<string> | null = null;
  /** Raw arguments of tool calls the model sent as invalid JSON (refused by the executor's guards). */
  private readonly invalidArgs = new Map<string, string>();

  constructor(
    private readonly deps: RunSessionDeps,
    private readonly init: RunSessionInit,
  ) {}

  async callModel(history: BaseMessage[]): Promise<AIMessage> {
    this.safePoint();
    const { snapshot, model, signal } = this.init;
    const visible = await this.refreshVisibleTools();
    const bound =
      visible.length === 0
        ? model
        : model.bindTools!(
            visible.map((tool) => ({
              type: 'function' as const,
              function: { name: tool.name, description: tool.description, parameters: tool.parameters },
            })),
          );
    const shown = repairDanglingToolCalls(history);
    const prompt =
      snapshot.system_prompt === '' ? shown : [new SystemMessage(snapshot.system_prompt), ...shown];

    const messageId = randomUUID();
    const deltas = new DeltaBatcher(this.deps.eventFlushMs, (delta) =>
      this.emit([{ type: 'message_delta', payload: { message_id: messageId, delta } }]).then(() => undefined),
    );
    let full: AIMessageChunk | undefined;
    try {
      for await (const chunk of await bound.stream(prompt, { signal })) {
        full = full === undefined ? chunk : full.concat(chunk);
        deltas.push(textOf(chunk.content));
      }
    } finally {
      await deltas.close();
    }
    this.safePoint();
    return this.recordAssistant(messageId, full ?? new AIMessageChunk({ content: '' }));
  }

  async runTools(request: AIMessage): Promise<ToolMessage[]> {
    const { runId, threadId, leaseToken } = this.init;
    const calls = request.tool_calls ?? [];
    const ids = calls.map((call) => toolMessageId(runId, request.id ?? '', call.id!));
    const stored = new Map((await this.deps.messages.findByIds(ids)).map((row) => [row.id, row]));
    const results: ToolMessage[] = [];
    let answered: Map<string, ToolCallResult> | null = null;
    for (const [index, call] of calls.entries()) {
      this.safePoint();
      const id = ids[index];
      const previous = stored.get(id);
      if (previous !== undefined) {
        // Executed by an earlier attempt of this run whose checkpoint was not written: not run twice.
        results.push(
          new ToolMessage({ id, content: previous.content, tool_call_id: call.id!, name: call.name }),
        );
        continue;
      }
      let result: ToolCallResult;
      if (call.name === ASK_USER_QUESTION) {
        answered ??= await this.askTurnQuestions(calls, (position) => stored.has(ids[position]));
        result = answered.get(call.id!)!;
      } else {
        result = await this.execute(call);
      }
      const { content, isError } = result;
      await this.deps.messages.insertFenced(
        { id, threadId, runId, role: 'tool', content, toolCallId: call.id!, name: call.name },
        leaseToken,
      );
      await this.emit([
        {
          type: 'tool_result',
          payload: { tool_call_id: call.id, name: call.name, content, is_error: isError },
        },
      ]);
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
    return results;
  }

  /**
   * Every `ask_user_question` call of the turn not answered yet, asked through one interrupt: their
   * arguments are validated (no side effect), the valid ones' questions go to one waiting point, and
   * each call's result carries its own questions and answers. The interrupt comes before any write of
   * these calls; on resume this node runs again from its first line and `interrupt` returns the
   * answers, which are then written. One interrupt per node run, so the resume value is never matched
   * to the wrong question.
   */
  private async askTurnQuestions(
    calls: ModelToolCall[],
    isStored: (index: number) => boolean,
  ): Promise<Map<string, ToolCallResult>> {
    const results = new Map<string, ToolCallResult>();
    const asked: AskedCall[] = [];
    let position = 0;
    for (const [index, call] of calls.entries()) {
      if (call.name !== ASK_USER_QUESTION) continue;
      position++;
      if (isStored(index)) continue;
      const result = await this.execute(call);
      results.set(call.id!, result);
      if (!result.isError) {
        const { questions } = JSON.parse(result.content) as { questions: NormalizedQuestion[] };
        asked.push({ toolCallId: call.id!, position, questions });
      }
    }
    if (asked.length === 0) return results;
    const answers = interrupt<QuestionInterrupt, Answers>({
      tool_call_id: asked[0].toolCallId,
      questions: mergeTurnQuestions(asked),
    });
    for (const call of asked) {
      const content = JSON.stringify({ questions: call.questions, answers: answersOfCall(answers, call) });
      results.set(call.toolCallId, { ...results.get(call.toolCallId)!, content });
    }
    return results;
  }

  private async execute(call: ModelToolCall): Promise<ToolCallResult> {
    logger.debug({ tool_call_id: call.id, tool: call.name }, 'tool call');
    return this.deps.executor.execute(
      { id: call.id!, name: call.name, args: this.invalidArgs.get(call.id!) ?? call.args },
      // A resumed run re-enters at its tools step: it gets what its model call would have shown.
      {
        ...this.init.toolContext,
        visibleTools: this.visibleTools ?? (await this.refreshVisibleToolNames()),
      },
    );
  }

  private async recordAssistant(messageId: string, full: AIMessageChunk): Promise<AIMessage> {
    const { runId, threadId, leaseToken } = this.init;
    const toolCalls: MessageToolCall[] = (full.tool_calls ?? []).map((call) => ({
      id: call.id ?? `call_${randomUUID()}`,
      name: call.name,
      args: call.args,
    }));
    for (const invalid of full.invalid_tool_calls ?? []) {
      const id = invalid.id ?? `call_${randomUUID()}`;
      this.invalidArgs.set(id, invalid.args ?? '');
      toolCalls.push({ id, name: invalid.name ?? 'unknown', args: {} });
    }
    const content = textOf(full.content);
    await this.deps.messages.insertFenced(
      {
        id: messageId,
        threadId,
        runId,
        role: 'assistant',
        content,
        toolCalls: toolCalls.length > 0 ? toolCalls : null,
      },
      leaseToken,
    );
    await this.emit([
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
    ]);
    const usage = full.usage_metadata;
    if (usage !== undefined)
      await this.deps.transitions.addUsage(runId, leaseToken, {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        total_tokens: usage.total_tokens,
      });
    return new AIMessage({
      id: messageId,
      content,
      tool_calls: toolCalls.map((call) => ({ ...call, type: 'tool_call' as const })),
      usage_metadata: usage,
    });
  }

  private async refreshVisibleTools(): Promise<OfferedTool[]> {
    const { snapshot, runId, threadId } = this.init;
    const context: VisibilityContext = { runId, threadId, snapshot };
    const visible = await this.deps.visibility.visible(context, this.init.executable);
    this.visibleTools = new Set(visible.map((tool) => tool.name));
    return visible;
  }

  private async refreshVisibleToolNames(): Promise<ReadonlySet<string>> {
    await this.refreshVisibleTools();
    return this.visibleTools!;
  }

  private emit(events: NewRunEvent[]) {
    return this.deps.events.emit(this.init.runId, events, { leaseToken: this.init.leaseToken });
  }

  private safePoint(): void {
    if (this.init.signal.aborted) throw new RunStoppedError();
  }
}
