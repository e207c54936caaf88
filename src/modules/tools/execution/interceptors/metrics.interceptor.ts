import { endOf, outcomeOf } from '../tool-call-end.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';
import { UNKNOWN_TOOL_METRIC, type ToolMetrics } from '../tool-metrics.js';

/** Counts every call once, however it ended (recorded in `finally`, like the audit row). */
export class MetricsInterceptor implements ToolInterceptor {
  constructor(private readonly metrics: ToolMetrics) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    try {
      return await next();
    } finally {
      // `scope.tool` is the registry's answer for the name: model-invented names share one bucket.
      const key = scope.tool === undefined ? UNKNOWN_TOOL_METRIC : scope.call.name;
      this.metrics.record(key, outcomeOf(endOf(scope)), scope.elapsedMs());
    }
  }
}
