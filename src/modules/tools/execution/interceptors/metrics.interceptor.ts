import { UNKNOWN_TOOL_METRIC, type ToolMetrics } from '../tool-metrics.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

export class MetricsInterceptor implements ToolInterceptor {
  constructor(private readonly metrics: ToolMetrics) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const result = await next();
    // `scope.tool` is the registry's answer for the name: model-invented names share one bucket.
    const key = scope.tool === undefined ? UNKNOWN_TOOL_METRIC : scope.call.name;
    this.metrics.record(key, result.outcome, performance.now() - scope.startedAt);
    return result;
  }
}
