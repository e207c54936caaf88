import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { preparedQueryIn } from '../../../database/prepared-query.js';
import type { NewMessage } from '../messages/messages.repository.js';
import { eventsOf, RunStore } from '../runs/run-store.js';
import type { ModelCallUsage } from '../usage/model-call-usage.js';
import type { NewRunEvent, RunEvent } from './run-event.js';

/** Who may append: the lease holder (its token is checked in the same statement) or any writer. */
export type EventFence = { leaseToken: string } | 'unfenced';

/** An append of run events. */
export interface EventAppend {
  runId: string;
  events: readonly NewRunEvent[];
  fence: EventFence;
  /** The caller's transaction, if any. */
  manager?: EntityManager;
  /**
   * The run's message the events announce, stored in the same statement under the same fence (lease
   * holder only). A message already stored under its id, from a re-executed step, is kept as it is.
   */
  message?: NewMessage;
  /** A model call's usage, its `model_usage` row written in the same statement (with `message` only). */
  usage?: ModelCallUsage;
}

/** Events per read of a replay. */
export const RUN_EVENT_REPLAY_PAGE = 500;

/**
 * The run-event table. Sequence numbers come from the run row (`last_event_seq`), bumped in the same
 * statement that inserts the events (`RunStore`), so they start at 1 and have no gaps whatever the
 * writers.
 */
@Injectable()
export class RunEventStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: RunStore,
  ) {}

  /**
   * Numbers and stores the events in one statement. Returns them numbered, or `null` when the fence
   * refused (the lease is no longer this token's) and nothing was written.
   */
  async append({ runId, events, fence, manager, message, usage }: EventAppend): Promise<RunEvent[] | null> {
    if (events.length === 0) return [];
    if (fence === 'unfenced') {
      if (message !== undefined || usage !== undefined)
        throw new Error('a record is appended under the lease');
      return this.store.appendEvents(runId, events, manager);
    }
    const { leaseToken } = fence;
    if (message === undefined) {
      if (usage !== undefined) throw new Error('token usage is recorded with its reply');
      return this.store.appendEventsFenced(runId, events, leaseToken, manager);
    }
    if (manager !== undefined) throw new Error('a record is its own statement');
    return this.store.appendRecord({ runId, events, leaseToken, message, usage });
  }

  /** Events after `afterSeq`, in order, at most one page. */
  async listAfter(runId: string, afterSeq: number, limit = RUN_EVENT_REPLAY_PAGE): Promise<RunEvent[]> {
    return eventsOf(
      await preparedQueryIn(
        this.dataSource.manager,
        `SELECT run_id, seq, type, payload, created_at FROM run_events
          WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [runId, afterSeq, limit],
      ),
    );
  }
}
