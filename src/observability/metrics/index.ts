// Metrics' front door: what the rest of the code records with, and what the listeners serve.
export { MetricsModule, MetricsEndpointModule } from './metrics.module.js';
export { Metrics, type ModelCallTokens } from './metrics.js';
export { MetricsExposition, METRICS_PATH } from './metrics-exposition.js';
export { METRICS_ROUTE } from './metrics.controller.js';
export { answerMetrics } from './metrics-http.js';
export { OTHER_LABEL } from './bounded-label.js';
export { METRIC_PREFIX } from './metric-series.js';
export type {
  McpDiscoveryOutcomeLabel,
  ModelCallOutcomeLabel,
  ModelCallPurposeLabel,
  RunEndStatus,
  SandboxOutcomeLabel,
  ToolCallOutcomeLabel,
  ToolSourceLabel,
} from './metric-labels.js';
