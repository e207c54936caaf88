import type { LargeResultOffloader } from '../large-result-offloader.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

/**
 * Passes every successful result, whatever tool source produced it (builtin, MCP, web search, skills),
 * through the large-result store: an oversized one is saved and the model gets a short reference.
 */
export class LargeResultInterceptor implements ToolInterceptor {
  constructor(private readonly offloader: LargeResultOffloader) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const result = await next();
    if (result.isError) return result;
    const content = await this.offloader.offload(result.content, {
      context: scope.context,
      toolCallId: scope.call.id,
      signal: scope.abortController.signal,
    });
    return content === result.content ? result : { ...result, content };
  }
}
