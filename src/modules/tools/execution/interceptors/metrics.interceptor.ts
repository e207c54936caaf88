import type { ToolMetrics } from '../tool-metrics.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

export class MetricsInterceptor implements ToolInterceptor {
  constructor(private readonly metrics: ToolMetrics) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const result = await next();
    this.metrics.record(scope.call.name, result.outcome, performance.now() - scope.startedAt);
    return result;
  }
}
