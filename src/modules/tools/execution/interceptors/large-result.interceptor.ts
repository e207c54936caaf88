import type { LargeResultOffloader } from '../large-result-offloader.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

/**
 * Passes every successful result, whatever tool source produced it (builtin, MCP, knowledge, web
 * search, sandbox), through the large-result store: an oversized one is saved and the model gets a
 * preview. A tool that pages its own output (`boundsOwnOutput`: read_file) is left alone, so reading a
 * saved result back returns the page asked for rather than saving it again.
 */
export class LargeResultInterceptor implements ToolInterceptor {
  constructor(private readonly offloader: LargeResultOffloader) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const result = await next();
    if (result.isError || scope.tool?.metadata.boundsOwnOutput === true) return result;
    const content = await this.offloader.offload({
      content: result.content,
      toolName: scope.call.name,
      invocation: {
        context: scope.context,
        toolCallId: scope.call.id,
        signal: scope.abortController.signal,
      },
    });
    return content === result.content ? result : { ...result, content };
  }
}
