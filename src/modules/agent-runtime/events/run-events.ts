import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LeaseLostError } from '../runs/runs.errors.js';
import { RunEventBus } from './run-event-bus.js';
import type { CheckpointCompanion } from '../graph/checkpoint-companion.js';
import {
  RunEventStore,
  storedEvents,
  type EventFence,
  type RunRowChange,
  type RunRowSet,
} from './run-event-store.js';
import type { NewMessage } from '../messages/messages.repository.js';
import type { NewRunEvent, RunEvent } from './run-event.js';

/** Appends run events to the table, then publishes them for live streams. */
@Injectable()
export class RunEvents {
  constructor(
    private readonly store: RunEventStore,
    private readonly bus: RunEventBus,
  ) {}

  /**
   * Stores, then publishes without waiting for Redis; a fenced append whose lease is gone throws
   * `LeaseLostError`. With a `message` (fenced only), the message the events announce is stored in the
   * same statement, and `runSet` changes more of the run row there (fenced only).
   */
  async emit(
    runId: string,
    events: readonly NewRunEvent[],
    fence: EventFence,
    message?: NewMessage,
    runSet?: RunRowSet,
  ): Promise<RunEvent[]> {
    const stored = await this.store.append(runId, events, fence, undefined, message, runSet);
    if (stored === null) throw new LeaseLostError(runId);
    // Not awaited: the run goes on while Redis takes it. Publishes leave in order on one connection, a
    // failed one is logged by the bus, and streams catch up from the table whatever it lost.
    void this.bus.publish(runId, stored);
    return stored;
  }

  /**
   * `emit` (fenced, with the message they announce) as the companion of the thread's next checkpoint:
   * stored in that checkpoint's statement and published once stored; when the lease is gone nothing of
   * either is written and the checkpoint's `put` fails with `LeaseLostError`. A companion no
   * checkpoint takes is emitted alone.
   */
  checkpointCompanion(
    runId: string,
    events: readonly NewRunEvent[],
    fence: { leaseToken: string },
    message?: NewMessage,
    runSet?: RunRowSet,
  ): CheckpointCompanion {
    return {
      render: (param) => this.store.fencedAppendSql(runId, events, fence.leaseToken, message, runSet, param),
      settle: (rows) => {
        const stored = storedEvents(rows);
        if (stored === null) throw new LeaseLostError(runId);
        void this.bus.publish(runId, stored);
      },
      storeAlone: async () => {
        await this.emit(runId, events, fence, message, runSet);
      },
    };
  }

  /**
   * Changes the run row and stores `events` in one statement (`RunEventStore.appendWithChange`); null
   * when the row did not match. Publish the events with `publish`. With `runColumns`, the changed row.
   */
  changeAndAppend(
    runId: string,
    events: readonly NewRunEvent[],
    change: RunRowChange,
    runColumns?: string,
  ): Promise<{ events: RunEvent[]; run: Record<string, unknown> } | null> {
    return this.store.appendWithChange(runId, events, change, runColumns);
  }

  /** Stores inside the caller's transaction; publish the result with `publish` after the commit. */
  async appendIn(manager: EntityManager, runId: string, events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    return (await this.store.append(runId, events, 'unfenced', manager)) ?? [];
  }

  /**
   * Stores inside the caller's transaction, fenced by the run's lease (`LeaseLostError` when it is gone,
   * which rolls the transaction back); publish the result with `publish` after the commit.
   */
  async appendFencedIn(
    manager: EntityManager,
    runId: string,
    events: readonly NewRunEvent[],
    leaseToken: string,
  ): Promise<RunEvent[]> {
    const stored = await this.store.append(runId, events, { leaseToken }, manager);
    if (stored === null) throw new LeaseLostError(runId);
    return stored;
  }

  publish(runId: string, events: RunEvent[]): Promise<void> {
    return this.bus.publish(runId, events);
  }
}

export const statusEvent = (status: string): NewRunEvent => ({ type: 'status', payload: { status } });
export const doneEvent = (status: string): NewRunEvent => ({ type: 'done', payload: { status } });
