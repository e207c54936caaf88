import { Injectable, Logger } from '@nestjs/common';
import { WaitingPoints } from '../questions/waiting-points.js';
import type { RunEntity } from '../runs/run.entity.js';
import { RunTransitions } from '../runs/run-transitions.js';
import type { Ending } from './run-ending.js';

/**
 * Records how an execution ended, under the worker's lease: parks a run waiting for answers or for its
 * subagents, finishes it with its outcome (or cancelled), or hands it back. Never throws: a failure is
 * logged and the lease runs out.
 */
@Injectable()
export class RunEndingRecorder {
  private readonly logger = new Logger(RunEndingRecorder.name);

  constructor(
    private readonly transitions: RunTransitions,
    private readonly waitingPoints: WaitingPoints,
  ) {}

  async record(run: RunEntity, leaseToken: string, ending: Ending): Promise<void> {
    try {
      if (ending.kind === 'waiting') {
        const { waiting } = ending;
        // A cancel requested meanwhile wins over the waiting point (the transitions finish the run cancelled).
        if ((await this.waitingPoints.park(run, leaseToken, waiting)) === 'not_running')
          this.logger.log({ status: 'cancelled' }, 'run finished');
        else
          this.logger.log(
            { tool_call_id: waiting.tool_call_id, kind: 'kind' in waiting ? 'approval' : 'questions' },
            'run waiting',
          );
        return;
      }
      if (ending.kind === 'awaiting') {
        const { run_ids: childIds, until } = ending.wait;
        const parked = await this.transitions.parkAwaiting(run, leaseToken, childIds, new Date(until));
        this.logger.log({ awaiting: childIds, until, result: parked }, 'run awaiting subagents');
        return;
      }
      if (ending.kind === 'outcome') {
        if (await this.transitions.finish(run, leaseToken, ending.outcome))
          this.logger.log(
            { status: ending.outcome.status, error_code: ending.outcome.error?.code },
            'run finished',
          );
        else this.logger.warn('lease lost before the outcome was recorded');
        return;
      }
      switch (ending.reason) {
        case 'cancel':
          if (await this.transitions.finish(run, leaseToken, { status: 'cancelled' }))
            this.logger.log({ status: 'cancelled' }, 'run finished');
          return;
        case 'shutdown':
          await this.transitions.release(run, leaseToken);
          this.logger.log('run handed back at shutdown');
          return;
        case 'dependency_outage':
          await this.transitions.release(run, leaseToken);
          this.logger.log('run handed back after a dependency outage');
          return;
        case 'lease_lost':
          this.logger.warn('lease lost: another worker or the reconciler owns the run');
      }
    } catch (error) {
      // The lease runs out and the reconciler takes over.
      this.logger.error({ err: error }, 'could not record how the run ended');
    }
  }
}
