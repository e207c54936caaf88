import type { EntityManager } from 'typeorm';
import { statusEvent, type RunEvents } from '../events/run-events.js';
import { isTerminal, type RunStatus } from './run-status.js';
import type { QueuedRun } from './runs.repository.js';
import { AWAIT_IS_DUE, QUEUED_COLUMNS, type EndedRow, type ParentNotice } from './run-transition-parts.js';

/**
 * A run parked in `subagent_await` with nothing left to wait for (or past its deadline) is `queued`
 * again, inside the caller's transaction; null when it is not due.
 */
export async function requeueDueAwaitIn(manager: EntityManager, runId: string): Promise<QueuedRun | null> {
  const [rows] = await manager.query<[QueuedRun[], number]>(
    `UPDATE runs SET status = 'queued', awaited_run_ids = NULL, awaiting_until = NULL
      WHERE runs.id = $1 AND ${AWAIT_IS_DUE}
      RETURNING ${QUEUED_COLUMNS}`,
    [runId],
  );
  return rows[0] ?? null;
}

/**
 * Inside the transaction that ended a child run: its parent gets a `subagent` event with the child's
 * final status and, if it is parked in `subagent_await` with nothing left to wait for, is queued
 * again. The parent row is locked first, so a parent parking at the same time either sees this
 * child ended or is seen parked here. A parent that has ended hears nothing (its `done` stays last).
 */
export async function tellParentIn(
  manager: EntityManager,
  events: RunEvents,
  childId: string,
  child: EndedRow,
): Promise<ParentNotice | null> {
  const parentId = child.parent_run_id;
  if (parentId === null) return null;
  const [parent] = await manager.query<{ status: RunStatus }[]>(
    `SELECT status FROM runs WHERE id = $1 FOR UPDATE`,
    [parentId],
  );
  if (parent === undefined || isTerminal(parent.status)) return null;
  const notice = await events.appendIn(manager, parentId, [
    {
      type: 'subagent',
      payload: {
        run_id: childId,
        thread_id: child.thread_id,
        subagent_slug: child.agent_slug,
        status: child.status,
      },
    },
  ]);
  const queued = await requeueDueAwaitIn(manager, parentId);
  if (queued !== null) notice.push(...(await events.appendIn(manager, parentId, [statusEvent('queued')])));
  return { runId: parentId, events: notice, queued };
}
