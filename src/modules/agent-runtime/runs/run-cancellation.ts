import { Injectable } from '@nestjs/common';
import { isTerminal } from './run-status.js';
import type { RunEntity } from './run.entity.js';
import { RunsErrors } from './runs.errors.js';
import { RunsRepository } from './runs.repository.js';
import { RunTransitions } from './run-transitions.js';

/**
 * Cancels a run and its active subagent runs (`RunTransitions.cancel`). A running run is asked to stop:
 * its worker is signalled over Redis (and notices `cancel_requested` at its next heartbeat if the signal
 * is lost).
 */
@Injectable()
export class RunCancellation {
  constructor(
    private readonly runs: RunsRepository,
    private readonly transitions: RunTransitions,
  ) {}

  async cancel(run: RunEntity): Promise<void> {
    if (isTerminal(run.status)) throw RunsErrors.alreadyFinished(run.status);
    const status = await this.transitions.cancel(run.id);
    if (status === null) {
      const current = await this.runs.findById(run.id);
      throw RunsErrors.alreadyFinished(current?.status ?? run.status);
    }
  }
}
