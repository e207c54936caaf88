import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { Metrics } from '../../../observability/metrics/index.js';
import { ModelErrors } from './model.errors.js';
import { DEFAULT_MODEL_RETRY_OPTIONS, type ModelRetryOptions } from './model-retry-policy.js';
import {
  RetryingChatOpenAI,
  type ModelCallEnd,
  type RetryingChatOpenAIFields,
} from './retrying-chat-openai.js';

export interface ChatModelFactoryOptions {
  retry?: Partial<ModelRetryOptions>;
  /** Limit for one HTTP try (a hung provider counts as a failed try). */
  requestTimeoutMs?: number;
  /** Test seams for the retry loop (timers, jitter, clock) and a hook for logging retries. */
  retryHooks?: RetryingChatOpenAIFields['retryHooks'];
}

/** Nest token for `ChatModelFactoryOptions` (optional: defaults apply without it). */
export const CHAT_MODEL_FACTORY_OPTIONS = Symbol('CHAT_MODEL_FACTORY_OPTIONS');

const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** OpenAI-compatible servers without authentication (vLLM, Ollama) still need some bearer value. */
const NO_API_KEY = 'not-configured';

/**
 * Builds the chat models agent runs talk to: the OpenAI-compatible endpoint from configuration, the
 * per-call model (or `DEFAULT_MODEL`), streaming tokens and tool calls with usage, and our retry policy.
 * The result is a LangChain `BaseChatModel`: `bindTools(...)`, `stream(...)` and LangGraph nodes work on it.
 */
@Injectable()
export class ChatModelFactory {
  private readonly retry: ModelRetryOptions;

  constructor(
    private readonly config: AppConfig,
    @Optional() @Inject(CHAT_MODEL_FACTORY_OPTIONS) private readonly options: ChatModelFactoryOptions = {},
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.retry = { ...DEFAULT_MODEL_RETRY_OPTIONS, ...this.options.retry };
  }

  /** Every call of a model made here is counted, with the tokens the provider reported. */
  private readonly countCall = (end: ModelCallEnd): void => {
    const tokens =
      end.usage === undefined ? null : { input: end.usage.input_tokens, output: end.usage.output_tokens };
    this.metrics?.modelCall(end.model, end.purpose, end.outcome, end.seconds, tokens);
  };

  /** Throws `models.not_configured` at once (no request, no retries) when no model is configured. */
  create(params: { model?: string } = {}): RetryingChatOpenAI {
    const { llm } = this.config;
    if (!llm.configured) throw ModelErrors.notConfigured();
    return new RetryingChatOpenAI({
      model: params.model ?? llm.defaultModel,
      apiKey: llm.openaiApiKey?.reveal() ?? NO_API_KEY,
      configuration: { baseURL: llm.openaiBaseUrl },
      streaming: true,
      streamUsage: true,
      timeout: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      retry: this.retry,
      retryHooks: this.options.retryHooks,
      onCallEnd: this.countCall,
    });
  }
}
