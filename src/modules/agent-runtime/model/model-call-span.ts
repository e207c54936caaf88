import {
  activeSpan,
  ATTR,
  errorTypeOf,
  inSpan,
  setContentAttribute,
  SpanKind,
  type Span,
} from '../../../observability/tracing/index.js';
import type { ModelUsagePurpose } from '../usage/model-call-usage.js';
import type { ChatTurn } from './chat-turn.js';

/** Every model endpoint this service talks to speaks OpenAI's Chat Completions. */
const PROVIDER = 'openai';

type RequestMessage = { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };

/** The spans `inModelCallSpan` started: a retry is counted only on the call it belongs to. */
const modelCallSpans = new WeakSet<Span>();

/**
 * One model call as a GenAI client span, `chat <model>`: the request's model and purpose, then what the
 * answer reported (model, finish reason, token usage), `error.type` when it failed. Retries are events
 * of this one span (`model.retry`, see `recordModelRetry`) and its `yuxi.model.attempts`: the usage
 * and the finish reason belong to the call, and each HTTP attempt, where HTTP is instrumented, is a
 * child span of its own. The messages and the answer are recorded only while content capture is on.
 */
export function inModelCallSpan(
  request: { model: string; purpose: ModelUsagePurpose; messages: () => readonly RequestMessage[] },
  call: () => Promise<ChatTurn>,
): Promise<ChatTurn> {
  return inSpan(
    `chat ${request.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR.genAiOperationName]: 'chat',
        [ATTR.genAiProviderName]: PROVIDER,
        [ATTR.genAiRequestModel]: request.model,
        [ATTR.modelPurpose]: request.purpose,
        [ATTR.modelAttempts]: 1,
      },
    },
    async (span) => {
      if (span.isRecording()) modelCallSpans.add(span);
      setContentAttribute(span, ATTR.genAiInputMessages, () => request.messages().map(inputMessageOf));
      try {
        const turn = await call();
        recordTurn(span, turn);
        return turn;
      } catch (error) {
        if (span.isRecording()) span.setAttribute(ATTR.errorType, errorTypeOf(error));
        throw error;
      }
    },
  );
}

/** Counts a retry on the model call span active now (none: a request made outside `streamTurn`). */
export function recordModelRetry(event: { attempt: number; delayMs: number; status?: number }) {
  const span = activeSpan();
  if (span === undefined || !span.isRecording() || !modelCallSpans.has(span)) return;
  span.setAttribute(ATTR.modelAttempts, event.attempt + 1);
  span.addEvent('model.retry', {
    'yuxi.model.attempt': event.attempt,
    'yuxi.model.retry_delay_ms': event.delayMs,
    ...(event.status === undefined ? {} : { 'http.response.status_code': event.status }),
  });
}

function recordTurn(span: Span, turn: ChatTurn): void {
  if (!span.isRecording()) return;
  if (turn.responseModel !== undefined) span.setAttribute(ATTR.genAiResponseModel, turn.responseModel);
  if (turn.responseId !== undefined) span.setAttribute(ATTR.genAiResponseId, turn.responseId);
  if (turn.finishReason !== undefined)
    span.setAttribute(ATTR.genAiResponseFinishReasons, [turn.finishReason]);
  if (turn.usage !== undefined) {
    span.setAttribute(ATTR.genAiUsageInputTokens, turn.usage.input_tokens);
    span.setAttribute(ATTR.genAiUsageOutputTokens, turn.usage.output_tokens);
    const cached = turn.usage.input_token_details?.cache_read;
    if (typeof cached === 'number') span.setAttribute(ATTR.genAiUsageCacheReadInputTokens, cached);
  }
  setContentAttribute(span, ATTR.genAiOutputMessages, () => [
    {
      role: 'assistant',
      parts: [
        ...(turn.content === '' ? [] : [{ type: 'text', content: turn.content }]),
        ...turn.toolCalls.map((call) => ({
          type: 'tool_call',
          id: call.id,
          name: call.name,
          arguments: call.args,
        })),
      ],
      ...(turn.finishReason === undefined ? {} : { finish_reason: turn.finishReason }),
    },
  ]);
}

/** A Chat Completions request message in the GenAI conventions' shape (`role` and `parts`). */
function inputMessageOf(message: RequestMessage): { role: unknown; parts: unknown[] } {
  const parts: unknown[] = [];
  if (message.role === 'tool') {
    parts.push({ type: 'tool_call_response', id: message.tool_call_id, response: message.content });
    return { role: 'tool', parts };
  }
  if (typeof message.content === 'string') {
    if (message.content !== '') parts.push({ type: 'text', content: message.content });
  } else if (Array.isArray(message.content)) {
    for (const part of message.content as { type?: unknown; text?: unknown }[])
      parts.push(part.type === 'text' ? { type: 'text', content: part.text } : { type: String(part.type) });
  }
  if (Array.isArray(message.tool_calls))
    for (const call of message.tool_calls as {
      id?: unknown;
      function?: { name?: unknown; arguments?: unknown };
    }[])
      parts.push({
        type: 'tool_call',
        id: call.id,
        name: call.function?.name,
        arguments: call.function?.arguments,
      });
  return { role: message.role, parts };
}
