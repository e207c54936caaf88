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
