import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { Checkpointer } from '../graph/checkpointer.js';
import { RunDispatcher } from '../queue/run-dispatcher.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { RunTransitions } from '../runs/run-transitions.js';

const BATCH = 200;
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Keeps PostgreSQL and the queue in step, at worker start and every RUN_RECONCILE_SECONDS: runs whose
 * lease expired (their worker died) are re-queued or failed, and queued runs at the head of their
 * thread get their job again (after Redis lost it, or a wake-up was missed) unless their user has no
 * free in-flight slot (held runs are let go when one of the user's runs leaves flight); every ten minutes the
 * checkpoints of deleted threads are removed. Safe to run in every
 * worker at once: each change is conditional.
 */
@Injectable()
export class RunReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RunReconciler.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private lastPurgeAt = 0;

  constructor(
    private readonly runs: RunsRepository,
    private readonly transitions: RunTransitions,
    private readonly dispatcher: RunDispatcher,
    private readonly checkpointer: Checkpointer,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.config.runtime.reconcileSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass (also called directly by tests and benchmarks). */
  async reconcile(): Promise<{ recovered: number; dispatched: number; purgedThreads: number }> {
    let recovered = 0;
    for (const run of await this.runs.expiredLeases(BATCH)) {
      const status = await this.transitions.recoverExpired(run.id);
      if (status !== null) {
        recovered++;
        this.logger.warn(
          { run_id: run.id, request_id: run.originRequestId, status },
          'recovered a run whose lease expired',
        );
      }
    }
    // Parents parked in subagent_await past their deadline whose wake-up job was lost.
    for (const runId of await this.runs.overdueAwaits(BATCH)) await this.transitions.wakeDueAwait(runId);
    let dispatched = 0;
    const { reconcileSeconds, maxInFlightPerUser } = this.config.runtime;
    for (const run of await this.runs.queuedHeads(reconcileSeconds, BATCH, maxInFlightPerUser))
      if (await this.dispatcher.dispatch(run)) dispatched++;
    const purgedThreads = this.purgeDue() ? await this.checkpointer.purgeDeletedThreads() : 0;
    return { recovered, dispatched, purgedThreads };
  }

  /** Checkpoints of deleted threads are looked for once per PURGE_EVERY_MS, not on every pass. */
  private purgeDue(): boolean {
    if (Date.now() - this.lastPurgeAt < PURGE_EVERY_MS) return false;
    this.lastPurgeAt = Date.now();
    return true;
  }

  private async tick(): Promise<void> {
    if (this.running !== null) return;
    this.running = this.reconcile()
      .then(() => undefined)
      .catch((error: Error) => this.logger.warn({ err: error.message }, 'reconcile pass failed'))
      .finally(() => (this.running = null));
    await this.running;
  }
}
