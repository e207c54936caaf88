import type { UsageMetadata } from '@langchain/core/messages';

/** Why a model call was made: a run's agent step, or work around it (context compression, a title). */
export const MODEL_USAGE_PURPOSES = ['agent', 'summary', 'title'] as const;
export type ModelUsagePurpose = (typeof MODEL_USAGE_PURPOSES)[number];

/** What one model call cost, as the provider reported it (cached tokens are part of the input tokens). */
export interface ModelCallUsage {
  model: string;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
}

/**
 * The provider's figures for one call (LangChain's `usage_metadata`, read from the streamed answer:
 * `prompt_tokens`, `completion_tokens`, and `prompt_tokens_details.cached_tokens` as `cache_read`).
 * A provider that reported none still made a call: it is counted, with zero tokens.
 */
export function callUsageOf(model: string, usage: UsageMetadata | undefined): ModelCallUsage {
  return {
    model,
    input_tokens: usage?.input_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    cached_tokens: usage?.input_token_details?.cache_read ?? 0,
  };
}
