import { Injectable } from '@nestjs/common';
import { Metrics, type ToolSourceLabel } from '../../../observability/metrics/index.js';
import type { ToolCallOutcome } from './tool-call-scope.js';

const SAMPLES = 1024;

/**
 * The one key under which calls to names no registered tool has are counted, so names a model invents
 * cannot grow the map. Parentheses are not allowed in an OpenAI function name nor an MCP tool name, so no
 * real tool can be called this.
 */
export const UNKNOWN_TOOL_METRIC = '(unknown)';

interface ToolStats {
  calls: number;
  outcomes: Record<ToolCallOutcome, number>;
  durations: number[];
  next: number;
}

export interface ToolStatsSnapshot {
  tool: string;
  calls: number;
  outcomes: Record<ToolCallOutcome, number>;
  p50_ms: number;
  p99_ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * In-process call counts per tool and outcome, and latency percentiles over the last 1024 calls. Keyed by
 * registered tool names only (the caller passes `UNKNOWN_TOOL_METRIC` for the rest): the map is bounded by
 * the registry. Each call is also counted in the process's Prometheus series (`Metrics.toolCall`).
 */
@Injectable()
export class ToolMetrics {
  private readonly stats = new Map<string, ToolStats>();

  constructor(private readonly metrics: Metrics) {}

  record(tool: string, source: ToolSourceLabel, outcome: ToolCallOutcome, durationMs: number): void {
    this.metrics.toolCall(tool, source, outcome, durationMs / 1000);
    let entry = this.stats.get(tool);
    if (entry === undefined) {
      entry = {
        calls: 0,
        outcomes: { ok: 0, error: 0, refused: 0, timeout: 0, cancelled: 0, revoked: 0 },
        durations: [],
        next: 0,
      };
      this.stats.set(tool, entry);
    }
    entry.calls += 1;
    entry.outcomes[outcome] += 1;
    if (entry.durations.length < SAMPLES) entry.durations.push(durationMs);
    else entry.durations[entry.next] = durationMs;
    entry.next = (entry.next + 1) % SAMPLES;
  }

  snapshot(): ToolStatsSnapshot[] {
    return [...this.stats.entries()].map(([tool, entry]) => {
      const sorted = [...entry.durations].sort((a, b) => a - b);
      return {
        tool,
        calls: entry.calls,
        outcomes: { ...entry.outcomes },
        p50_ms: Math.round(percentile(sorted, 50) * 1000) / 1000,
        p99_ms: Math.round(percentile(sorted, 99) * 1000) / 1000,
      };
    });
  }
}
