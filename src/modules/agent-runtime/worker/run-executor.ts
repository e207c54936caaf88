import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../../config/app-config.js';
import type { RunEntity } from '../runs/run.entity.js';
import { RunTransitions, type ClaimResult } from '../runs/run-transitions.js';
import { ActiveRuns, type StopReason } from './active-runs.js';
import { LeaseKeeper } from './lease-keeper.js';
import { endingOfError, type Ending } from './run-ending.js';
import { RunEndingRecorder } from './run-ending-recorder.js';
import { RunGraphExecution } from './run-graph-execution.js';
import { inRunSpan } from './run-span.js';

/**
 * Executes one run under a lease: claim, keep the lease, run the graph from the thread's checkpoint
 * (`RunGraphExecution`) and record how it ended (`RunEndingRecorder`). A run that an earlier worker
 * started resumes from its checkpoint; one that had already finished its graph is just recorded. Each
 * claimed execution is a span (`run <agent slug>`) in the trace the job carries.
 */
@Injectable()
export class RunExecutor {
  private readonly logger = new Logger(RunExecutor.name);

  constructor(
    private readonly transitions: RunTransitions,
    private readonly graph: RunGraphExecution,
    private readonly recorder: RunEndingRecorder,
    private readonly active: ActiveRuns,
    private readonly config: AppConfig,
  ) {}

  /**
   * Executes the run if it can be claimed; `jobSignal` is BullMQ's abort signal for the job. Log lines
   * name the run through the caller's log context (`RunLogContext`); `onClaimed` completes it from the row.
   */
  async execute(
    runId: string,
    jobSignal?: AbortSignal,
    onClaimed?: (run: RunEntity) => void,
  ): Promise<ClaimResult['kind']> {
    const leaseToken = randomUUID();
    const claimStarted = new Date();
    const claim = await this.transitions.claim(runId, leaseToken);
    if (claim.kind !== 'claimed') return claim.kind;
    const run = claim.run;
    await inRunSpan(run, claimStarted, () => this.executeClaimed(run, leaseToken, jobSignal, onClaimed));
    return 'claimed';
  }

  /** The claimed run executed under its lease, its ending recorded; the ending is returned. */
  private async executeClaimed(
    run: RunEntity,
    leaseToken: string,
    jobSignal: AbortSignal | undefined,
    onClaimed: ((run: RunEntity) => void) | undefined,
  ): Promise<Ending> {
    onClaimed?.(run);
    this.logger.log({ attempt: run.attempts }, 'run claimed');

    const stop = new AbortController();
    const onJobAbort = () => stop.abort('cancel' satisfies StopReason);
    jobSignal?.addEventListener('abort', onJobAbort, { once: true });
    const lease = new LeaseKeeper(
      this.transitions,
      run.id,
      leaseToken,
      (this.config.runtime.runLeaseSeconds * 1000) / 3,
      {
        lost: () => stop.abort('lease_lost' satisfies StopReason),
        cancelRequested: () => stop.abort('cancel' satisfies StopReason),
      },
    );
    let finished: () => void = () => undefined;
    this.active.add(run.id, stop, new Promise<void>((resolve) => (finished = resolve)));
    try {
      const ending = await this.run(run, leaseToken, stop.signal);
      await this.recorder.record(run, leaseToken, ending);
      return ending;
    } finally {
      lease.stop();
      jobSignal?.removeEventListener('abort', onJobAbort);
      this.active.remove(run.id);
      finished();
    }
  }

  private async run(run: RunEntity, leaseToken: string, signal: AbortSignal): Promise<Ending> {
    try {
      const end = await this.graph.run(run, leaseToken, signal);
      return end.kind === 'completed' ? { kind: 'outcome', outcome: { status: 'completed' } } : end;
    } catch (error) {
      if (signal.aborted) return { kind: 'stopped', reason: signal.reason as StopReason };
      return endingOfError(error, this.logger);
    }
  }
}
