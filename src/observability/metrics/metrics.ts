import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { BoundedLabel } from './bounded-label.js';
import type {
  McpDiscoveryOutcomeLabel,
  McpToolCallOutcomeLabel,
  ModelCallOutcomeLabel,
  ModelCallPurposeLabel,
  RunEndStatus,
  SandboxOutcomeLabel,
  ToolCallOutcomeLabel,
  ToolSourceLabel,
} from './metric-labels.js';
import type { MetricSeries } from './metric-series.js';
import { MetricsRegistry } from './metrics-registry.js';

/**
 * Distinct tool names kept as label values. Tools are this service's own or an admin-configured MCP
 * server's, and names no run was offered are counted as `(unknown)` already: the cap only guards
 * against a server with thousands of tools.
 */
const TOOL_LABEL_CAP = 500;

/** Tokens one model call used, as the provider reported them. */
export interface ModelCallTokens {
  input: number;
  output: number;
}

/**
 * What the code records, in its own terms: one method per event, closed label vocabularies, and the
 * open ones (agents, models, MCP servers, tools) capped per process (`METRICS_MAX_AGENT_LABELS`, later
 * values counted as `(other)`). Every method is synchronous and cheap; none touches I/O.
 */
@Injectable()
export class Metrics {
  private readonly series: MetricSeries;
  private readonly agents: BoundedLabel;
  private readonly models: BoundedLabel;
  private readonly mcpServers: BoundedLabel;
  private readonly tools = new BoundedLabel(TOOL_LABEL_CAP);

  constructor(registry: MetricsRegistry, config: AppConfig) {
    this.series = registry.series;
    const cap = config.metrics.maxAgentLabels;
    this.agents = new BoundedLabel(cap);
    this.models = new BoundedLabel(cap);
    this.mcpServers = new BoundedLabel(cap);
  }

  /** A run was claimed by this process; `queueWaitSeconds` on its first claim only. */
  runClaimed(queueWaitSeconds: number | null): void {
    if (queueWaitSeconds !== null) this.series.runQueueWait.observe(Math.max(0, queueWaitSeconds));
  }

  /** How many runs this process executes now. */
  activeRuns(count: number): void {
    this.series.activeRuns.set(count);
  }

  /** Whether this worker holds (takes no new runs while CPU-bound, `WorkerLoadGate`). */
  workerHolding(holding: boolean): void {
    this.series.workerHolding.set(holding ? 1 : 0);
  }

  /**
   * A run's final status was committed (once per run). `durationSeconds` from its first claim, when
   * the process ending it knows it (null for a run cancelled while queued or waiting, or recovered).
   */
  runEnded(status: RunEndStatus, agentSlug: string, durationSeconds: number | null): void {
    this.series.runs.inc({ status, agent: this.agents.of(agentSlug) });
    if (durationSeconds !== null) this.series.runDuration.observe({ status }, Math.max(0, durationSeconds));
  }

  /** `tool` is a name the run was offered (or `(unknown)`), never a name as the model sent it. */
  toolCall(tool: string, source: ToolSourceLabel, outcome: ToolCallOutcomeLabel, seconds: number): void {
    const label = this.tools.of(tool);
    this.series.toolCalls.inc({ tool: label, source, outcome });
    this.series.toolCallDuration.observe({ tool: label, source }, seconds);
  }

  modelCall(
    model: string,
    purpose: ModelCallPurposeLabel,
    outcome: ModelCallOutcomeLabel,
    seconds: number,
    tokens: ModelCallTokens | null,
  ): void {
    const label = this.models.of(model);
    this.series.modelCalls.inc({ model: label, purpose, outcome });
    this.series.modelCallDuration.observe({ model: label, purpose }, seconds);
    if (tokens === null) return;
    if (tokens.input > 0) this.series.modelTokens.inc({ model: label, purpose, type: 'input' }, tokens.input);
    if (tokens.output > 0)
      this.series.modelTokens.inc({ model: label, purpose, type: 'output' }, tokens.output);
  }

  sseStreamOpened(): void {
    this.series.sseStreams.inc();
  }

  sseStreamClosed(): void {
    this.series.sseStreams.dec();
  }

  /** A tool list read from an MCP server (`serverSlug` is its admin-given slug). */
  mcpDiscovery(serverSlug: string, outcome: McpDiscoveryOutcomeLabel, seconds: number): void {
    this.series.mcpDiscoveryDuration.observe({ server: this.mcpServers.of(serverSlug), outcome }, seconds);
  }

  /** A `tools/call` request to an MCP server, however it ended. */
  mcpToolCall(serverSlug: string, outcome: McpToolCallOutcomeLabel, seconds: number): void {
    const server = this.mcpServers.of(serverSlug);
    this.series.mcpToolCalls.inc({ server, outcome });
    this.series.mcpToolCallDuration.observe({ server }, seconds);
  }

  sandboxExecution(outcome: SandboxOutcomeLabel, seconds: number): void {
    this.series.sandboxExecutions.inc({ outcome });
    this.series.sandboxDuration.observe({ outcome }, seconds);
  }
}
