import { ToolsErrors } from '../../tools.errors.js';
import { ToolCallStopped } from '../tool-call-end.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

/**
 * Bounds the handler: after the tool's timeout (or the default) the call's signal is aborted and the
 * call ends with `tools.timeout`; a cancelled run ends it with `tools.cancelled`.
 */
export class TimeoutInterceptor implements ToolInterceptor {
  constructor(private readonly defaultTimeoutMs: number) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const timeoutMs = scope.tool?.metadata.timeoutMs ?? this.defaultTimeoutMs;
    const controller = scope.abortController;
    const runSignal = scope.context.signal;
    let timer: NodeJS.Timeout | undefined;
    let onRunAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = ToolsErrors.timeout(scope.call.name, timeoutMs);
        controller.abort(error);
        reject(new ToolCallStopped('timeout', error));
      }, timeoutMs);
      if (runSignal !== undefined) {
        onRunAbort = () => {
          const error = ToolsErrors.cancelled(scope.call.name);
          controller.abort(error);
          reject(new ToolCallStopped('cancelled', error));
        };
        if (runSignal.aborted) onRunAbort();
        else runSignal.addEventListener('abort', onRunAbort, { once: true });
      }
    });
    try {
      return await Promise.race([next(), stopped]);
    } finally {
      clearTimeout(timer);
      if (onRunAbort !== undefined) runSignal?.removeEventListener('abort', onRunAbort);
    }
  }
}
