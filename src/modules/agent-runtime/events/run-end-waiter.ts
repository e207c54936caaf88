import { Injectable } from '@nestjs/common';
import { RunsRepository } from '../runs/runs.repository.js';
import { isTerminal, type RunStatus } from '../runs/run-status.js';
import { RunEventBus } from './run-event-bus.js';

/**
 * Waits, without polling, until a run ends (its `done` event), stops for its user (a `waiting` event:
 * questions or calls to approve), or a bound passes.
 */
@Injectable()
export class RunEndWaiter {
  constructor(
    private readonly bus: RunEventBus,
    private readonly runs: RunsRepository,
  ) {}

  /**
   * The terminal status, `waiting` when the run waits for its user (not for its subagents), or null
   * when neither happened within `timeoutMs`.
   */
  async waitForEndOrUser(runId: string, timeoutMs: number): Promise<RunStatus | null> {
    let settle: (status: RunStatus | null) => void = () => undefined;
    const ended = new Promise<RunStatus | null>((resolve) => (settle = resolve));
    const check = async () => {
      const run = await this.runs.findById(runId);
      if (run === null || isTerminal(run.status)) settle(run?.status ?? null);
      else if (run.status === 'waiting' && run.awaitedRunIds === null) settle('waiting');
    };
    const unsubscribe = await this.bus.subscribe(runId, {
      onEvents: (events) => {
        const done = events.find((event) => event.type === 'done');
        if (done !== undefined) settle(done.payload.status as RunStatus);
        else if (events.some((event) => event.type === 'waiting')) settle('waiting');
      },
      onResync: () => void check().catch(() => undefined),
    });
    const timer = setTimeout(() => settle(null), timeoutMs);
    try {
      await check();
      return await ended;
    } finally {
      clearTimeout(timer);
      unsubscribe();
    }
  }
}
