import { Injectable } from '@nestjs/common';
import { Metrics } from '../../../observability/metrics/index.js';

/** Why a run stopped before an outcome; `dependency_outage` is ours alone (the database or Redis failed under it). */
export type StopReason = 'cancel' | 'lease_lost' | 'shutdown' | 'dependency_outage';

/** Runs this process is executing, each with the controller that stops it at its next safe point. */
@Injectable()
export class ActiveRuns {
  private readonly runs = new Map<string, { controller: AbortController; finished: Promise<void> }>();

  constructor(private readonly metrics: Metrics) {}

  add(runId: string, controller: AbortController, finished: Promise<void>): void {
    this.runs.set(runId, { controller, finished });
    this.metrics.activeRuns(this.runs.size);
  }

  remove(runId: string): void {
    this.runs.delete(runId);
    this.metrics.activeRuns(this.runs.size);
  }

  get size(): number {
    return this.runs.size;
  }

  stop(runId: string, reason: StopReason): void {
    const run = this.runs.get(runId);
    if (run !== undefined && !run.controller.signal.aborted) run.controller.abort(reason);
  }

  /** Stops every run and resolves when they have all wound down. */
  async stopAll(reason: StopReason): Promise<void> {
    for (const runId of this.runs.keys()) this.stop(runId, reason);
    await Promise.all([...this.runs.values()].map((run) => run.finished));
  }

  /** Resolves when no run is active, or after `ms`. */
  async idle(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.runs.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...this.runs.values()].map((run) => run.finished)),
        new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
    }
  }
}
