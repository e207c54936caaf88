import type { AppConfig } from '../../../config/app-config.js';
import { modelContextKey } from '../../../config/model-context-windows.js';

/** How much one model request may hold. */
export interface ContextLimits {
  /** The model's context window, in tokens. */
  windowTokens: number;
  /** Above this estimate a request is compressed first (`CONTEXT_COMPRESSION_RATIO` of the window). */
  compressAboveTokens: number;
}

export function contextLimitsOf(config: AppConfig, model: string): ContextLimits {
  const { windowTokens, windowTokensByModel, compressionRatio } = config.llm.context;
  const window = windowTokensByModel.get(modelContextKey(model)) ?? windowTokens;
  return { windowTokens: window, compressAboveTokens: Math.floor(window * compressionRatio) };
}
