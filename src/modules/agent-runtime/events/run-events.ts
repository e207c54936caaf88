import { Injectable } from '@nestjs/common';
import { LeaseLostError } from '../runs/runs.errors.js';
import { eventsOf, RunStore, type EventRow, type RunRecord } from '../runs/run-store.js';
import type { CheckpointCompanion } from '../graph/checkpoint-companion.js';
import { RunEventBus } from './run-event-bus.js';
import { RunEventStore, type EventAppend } from './run-event-store.js';
import type { NewRunEvent, RunEvent } from './run-event.js';

/** Appends run events to the table, then publishes them for live streams. */
@Injectable()
export class RunEvents {
  constructor(
    private readonly eventStore: RunEventStore,
    private readonly store: RunStore,
    private readonly bus: RunEventBus,
  ) {}

  /**
   * Stores (`RunEventStore.append`, outside any transaction), then publishes without waiting for
   * Redis; a fenced append whose lease is gone throws `LeaseLostError`.
   */
  async emit(append: Omit<EventAppend, 'manager'>): Promise<RunEvent[]> {
    const stored = await this.eventStore.append(append);
    if (stored === null) throw new LeaseLostError(append.runId);
    // Not awaited: the run goes on while Redis takes it. Publishes leave in order on one connection, a
    // failed one is logged by the bus, and streams catch up from the table whatever it lost.
    void this.bus.publish(append.runId, stored);
    return stored;
  }

  /**
   * A record of the lease holder as the companion of the thread's next checkpoint: stored in that
   * checkpoint's statement and published once stored; when the lease is gone nothing of either is
   * written and the checkpoint's `put` fails with `LeaseLostError`. A companion no checkpoint takes is
   * emitted alone.
   */
  checkpointCompanion(record: RunRecord): CheckpointCompanion {
    const { runId, events, leaseToken, message, usage } = record;
    return {
      render: (param) => this.store.recordCompanion(record, param),
      settle: (rows) => {
        if (rows.length === 0) throw new LeaseLostError(runId);
        void this.bus.publish(runId, eventsOf(rows as EventRow[]));
      },
      storeAlone: async () => {
        await this.emit({ runId, events, fence: { leaseToken }, message, usage });
      },
    };
  }

  publish(runId: string, events: RunEvent[]): Promise<void> {
    return this.bus.publish(runId, events);
  }
}

export const statusEvent = (status: string): NewRunEvent => ({ type: 'status', payload: { status } });
export const doneEvent = (status: string): NewRunEvent => ({ type: 'done', payload: { status } });
