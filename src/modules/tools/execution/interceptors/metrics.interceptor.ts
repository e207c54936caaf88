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
      const { tool } = scope;
      const key = tool === undefined ? UNKNOWN_TOOL_METRIC : scope.call.name;
      const source = tool === undefined ? UNKNOWN_TOOL_METRIC : tool.metadata.category;
      this.metrics.record(key, source, outcomeOf(endOf(scope)), scope.elapsedMs());
    }
  }
}
