import type { RunTransitions } from '../runs/run-transitions.js';

/**
 * Renews a run's lease every third of its length while the worker executes it. A renewal that finds
 * the lease gone, or the run asked to cancel, tells the executor through the callbacks. A renewal that
 * fails (database down) is retried at the next beat; the lease simply runs out if it never succeeds.
 */
export class LeaseKeeper {
  private readonly timer: NodeJS.Timeout;
  private beating = false;

  constructor(
    private readonly transitions: RunTransitions,
    private readonly runId: string,
    private readonly leaseToken: string,
    intervalMs: number,
    private readonly on: { lost(): void; cancelRequested(): void },
  ) {
    this.timer = setInterval(() => void this.beat(), intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      const status = await this.transitions.heartbeat(this.runId, this.leaseToken);
      if (status === null) this.on.lost();
      else if (status === 'cancel_requested') this.on.cancelRequested();
    } catch {
      // Retried at the next beat.
    } finally {
      this.beating = false;
    }
  }
}
