import { Logger } from '@nestjs/common';
import {
  ChatOpenAICompletions,
  convertMessagesToCompletionsMessageParams,
  type ChatOpenAIFields,
  type OpenAIClient,
} from '@langchain/openai';
import type { BaseMessage, MessageContent, UsageMetadata } from '@langchain/core/messages';
import type { ModelUsagePurpose } from '../usage/model-call-usage.js';
import { readChatTurn, type ChatTurn } from './chat-turn.js';
import { callWithModelRetries, type ModelRetryContext } from './call-with-model-retries.js';
import { streamChatCompletions } from './chat-completions-stream.js';
import type { ModelRetryOptions } from './model-retry-policy.js';
import { inModelCallSpan, recordModelRetry } from './model-call-span.js';

type StreamingRequest = OpenAIClient.Chat.ChatCompletionCreateParamsStreaming;
/** A tool as the model is shown it (OpenAI's function tool format). */
export type FunctionTool = OpenAIClient.Chat.ChatCompletionFunctionTool;
type NonStreamingRequest = OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming;
type RequestOptions = OpenAIClient.RequestOptions;

/** The OpenAI SDK's default limit for one try, where no timeout is given. */
const DEFAULT_TIMEOUT_MS = 600_000;

/** Inside a run's execution these lines carry the run's log fields (`RunLogContext`). */
const logger = new Logger('ChatModel');

/** How one `streamTurn` went (what the metrics count). */
export interface ModelCallEnd {
  model: string;
  purpose: ModelUsagePurpose;
  /** `cancelled`: the caller's signal was aborted when it failed. */
  outcome: 'ok' | 'error' | 'cancelled';
  seconds: number;
  /** The provider's figures; undefined when it failed or reported none. */
  usage: UsageMetadata | undefined;
}

export interface RetryingChatOpenAIFields extends ChatOpenAIFields {
  retry: ModelRetryOptions;
  /** Test seams and logging hooks for the retry loop. */
  retryHooks?: Pick<ModelRetryContext, 'sleep' | 'random' | 'now' | 'onRetry'>;
  /** Told of every `streamTurn` once it ended (synchronously; it must not throw). */
  onCallEnd?: (end: ModelCallEnd) => void;
}

/**
 * A Chat Completions model (any OpenAI-compatible endpoint) whose HTTP requests go through our retry
 * policy instead of LangChain's and the SDK's (both set to 0 retries). Every request, streamed or not,
 * passes through `completionWithRetry`; a stream is retried only before its first chunk, so no output is
 * ever repeated. LangChain still builds the request (messages, tools, options) and reads the chunks
 * (text, tool calls, usage); a streamed request is sent by `streamChatCompletions` (node's HTTP client,
 * a kept-alive connection) instead of the OpenAI SDK, whose fetch and web streams cost more than the rest
 * of a model call on our side. Requests that do not stream still go through the SDK.
 */
export class RetryingChatOpenAI extends ChatOpenAICompletions {
  private readonly retry: ModelRetryOptions;
  private readonly retryHooks: RetryingChatOpenAIFields['retryHooks'];
  private readonly endpoint: { baseUrl: string; apiKey: string };
  private readonly onCallEnd: RetryingChatOpenAIFields['onCallEnd'];

  constructor(fields: RetryingChatOpenAIFields) {
    const { retry, retryHooks, onCallEnd, ...openAIFields } = fields;
    super({ ...openAIFields, maxRetries: 0 });
    this.retry = retry;
    this.retryHooks = retryHooks;
    this.onCallEnd = onCallEnd;
    this.endpoint = {
      baseUrl: fields.configuration?.baseURL ?? 'https://api.openai.com/v1',
      apiKey: typeof fields.apiKey === 'string' ? fields.apiKey : '',
    };
  }

  /**
   * One streamed call with `tools` bound, read into a `ChatTurn` (`onText` gets the text as it comes).
   * The request is the one `bindTools(tools).stream(messages)` sends (built by LangChain's own request
   * and message conversion) and goes through `completionWithRetry`; the answer is read without
   * LangChain's chat-model runtime (callbacks, run trees and a message chunk per streamed chunk), which
   * cost more than the rest of a call on our side. `purpose` (default `agent`) is what the call is
   * counted as.
   */
  async streamTurn(
    messages: BaseMessage[],
    tools: FunctionTool[],
    options: { signal?: AbortSignal; onText: (text: string) => void; purpose?: ModelUsagePurpose },
  ): Promise<ChatTurn> {
    const started = performance.now();
    const purpose = options.purpose ?? 'agent';
    const ended = (outcome: ModelCallEnd['outcome'], usage?: UsageMetadata) =>
      this.onCallEnd?.({
        model: this.model,
        purpose,
        outcome,
        seconds: (performance.now() - started) / 1000,
        usage,
      });
    try {
      const callOptions = (tools.length === 0 ? {} : { tools }) as this['ParsedCallOptions'];
      const request: StreamingRequest = {
        ...this.invocationParams(callOptions, { streaming: true }),
        messages: convertMessagesToCompletionsMessageParams({ messages, model: this.model }),
        stream: true,
      };
      const turn = await inModelCallSpan(
        { model: this.model, purpose, messages: () => request.messages },
        async () => {
          const chunks = await this.completionWithRetry(request, { signal: options.signal });
          return readChatTurn(chunks, options.signal, options.onText);
        },
      );
      ended('ok', turn.usage);
      return turn;
    } catch (error) {
      ended(options.signal?.aborted === true ? 'cancelled' : 'error');
      throw error;
    }
  }

  /**
   * A length-based token estimate. LangChain's default downloads tiktoken encodings from the internet
   * on first use (an outbound call we do not allow, and a 30 s stall offline); the provider's own usage
   * figures arrive with each streamed reply anyway.
   */
  override getNumTokens(content: MessageContent): Promise<number> {
    const text =
      typeof content === 'string'
        ? content
        : content
            .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
            .join('');
    return Promise.resolve(Math.ceil(text.length / 4));
  }

  override completionWithRetry(
    request: StreamingRequest,
    requestOptions?: RequestOptions,
  ): Promise<AsyncIterable<OpenAIClient.Chat.Completions.ChatCompletionChunk>>;
  override completionWithRetry(
    request: NonStreamingRequest,
    requestOptions?: RequestOptions,
  ): Promise<OpenAIClient.Chat.Completions.ChatCompletion>;
  override completionWithRetry(
    request: StreamingRequest | NonStreamingRequest,
    requestOptions?: RequestOptions,
  ): Promise<unknown> {
    const signal = requestOptions?.signal ?? undefined;
    const once = request.stream
      ? () =>
          streamChatCompletions({
            ...this.endpoint,
            body: request,
            timeoutMs: this.timeout ?? DEFAULT_TIMEOUT_MS,
            signal,
          })
      : () => super.completionWithRetry(request as never, { ...requestOptions, maxRetries: 0 });
    logger.debug({ model: this.model }, 'model request');
    const onRetry = this.retryHooks?.onRetry;
    return callWithModelRetries(once, {
      ...this.retryHooks,
      onRetry: (event) => {
        logger.warn(
          { model: this.model, attempt: event.attempt, delay_ms: event.delayMs, status: event.status },
          'model request retried',
        );
        recordModelRetry(event);
        onRetry?.(event);
      },
      model: this.model,
      options: this.retry,
      signal,
    });
  }
}
