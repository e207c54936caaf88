import { Injectable } from '@nestjs/common';
import { RunsRepository } from '../runs/runs.repository.js';
import { isTerminal, type RunStatus } from '../runs/run-status.js';
import { RunEventBus } from './run-event-bus.js';

/** Waits, without polling, until a run ends (its `done` event) or a bound passes. */
@Injectable()
export class RunEndWaiter {
  constructor(
    private readonly bus: RunEventBus,
    private readonly runs: RunsRepository,
  ) {}

  /** The terminal status, or null when the run had not ended after `timeoutMs`. */
  async waitForEnd(runId: string, timeoutMs: number): Promise<RunStatus | null> {
    let settle: (status: RunStatus | null) => void = () => undefined;
    const ended = new Promise<RunStatus | null>((resolve) => (settle = resolve));
    const check = async () => {
      const run = await this.runs.findById(runId);
      if (run === null || isTerminal(run.status)) settle(run?.status ?? null);
    };
    const unsubscribe = await this.bus.subscribe(runId, {
      onEvents: (events) => {
        const done = events.find((event) => event.type === 'done');
        if (done !== undefined) settle(done.payload.status as RunStatus);
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
