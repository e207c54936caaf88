import type { EntityManager } from 'typeorm';
import { entityColumns, hydrate } from '../../../database/prepared-find.js';
import { preparedQueryIn } from '../../../database/prepared-query.js';
import { eventColumnsAs, firstEventsSql, splitEventRows } from '../events/run-event-store.js';
import { statusEvent } from '../events/run-events.js';
import type { RunEvent } from '../events/run-event.js';
import { messageInsertSql, type NewMessage } from '../messages/messages.repository.js';
import type { NewRunRow } from './run-transition-parts.js';
import { RunEntity } from './run.entity.js';

/**
 * A new run, `queued`, with its first event and the user message it answers, in one statement inside
 * the creation's transaction (which holds the thread's lock); the run is read back from RETURNING.
 * Publish the events after the commit (`RunTransitions.createIn`).
 */
export async function createRunIn(
  manager: EntityManager,
  row: NewRunRow,
  userMessage: NewMessage,
): Promise<{ run: RunEntity; events: RunEvent[] }> {
  const runs = manager.getRepository(RunEntity);
  const events = [statusEvent('queued')];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  // `created_at` orders the thread's queue, so it is the time the run took the thread (now), not when
  // the transaction began.
  const rows = await preparedQueryIn<Record<string, unknown>>(
    manager,
    `WITH created AS (
       INSERT INTO runs (id, thread_id, user_id, agent_slug, agent_id, status, input, model, parent_run_id,
                         request_id, payload_digest, origin_request_id, last_event_seq, created_at)
       VALUES (${param(row.id)}, ${param(row.threadId)}, ${param(row.userId)}, ${param(row.agentSlug)},
               ${param(row.agentId)}, 'queued', ${param(row.input)}, ${param(row.model)},
               ${param(row.parentRunId)}, ${param(row.requestId)}, ${param(row.payloadDigest)},
               ${param(row.originRequestId)}, ${param(events.length)}, clock_timestamp())
       RETURNING ${entityColumns(runs)}
     ), ${firstEventsSql(events, 'created', param)},
     user_message AS (${messageInsertSql(userMessage, param, 'created')})
     SELECT created.*, ${eventColumnsAs('e', 'event_')} FROM created, run_first_events e`,
    params,
  );
  const { events: stored, rest } = splitEventRows(rows, 'event_');
  return { run: hydrate(runs, rest), events: stored };
}
