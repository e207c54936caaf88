import type { DataSource } from 'typeorm';
import { statusEvent, type RunEvents } from '../events/run-events.js';
import type { RunEvent } from '../events/run-event.js';
import { tellParentIn } from './run-parent-notice.js';
import { ENDED_COLUMNS, terminalEvents, type EndedRow, type ParentNotice } from './run-transition-parts.js';

/**
 * The owner's cancel in one transaction: a queued or waiting run ends `cancelled` (its open question
 * withdrawn, its parent told), a running one becomes `cancel_requested`. Null when the run had
 * already finished. Publish and dispatch after the commit (`RunTransitions.cancel`).
 */
export function cancelRunIn(
  dataSource: DataSource,
  events: RunEvents,
  runId: string,
): Promise<{ row: EndedRow; events: RunEvent[]; parent: ParentNotice | null } | null> {
  return dataSource.transaction(async (manager) => {
    const [rows] = await manager.query<[EndedRow[], number]>(
      `UPDATE runs SET
          status = CASE WHEN status IN ('queued', 'waiting') THEN 'cancelled' ELSE 'cancel_requested' END,
          finished_at = CASE WHEN status IN ('queued', 'waiting') THEN now() END,
          awaited_run_ids = NULL, awaiting_until = NULL
        WHERE id = $1 AND status IN ('queued', 'waiting', 'running')
        RETURNING ${ENDED_COLUMNS}`,
      [runId],
    );
    const row = rows[0];
    if (row === undefined) return null;
    // A waiting run's question is withdrawn with it.
    await manager.query(
      `UPDATE waiting_points SET status = 'cancelled', cancelled_at = now() WHERE run_id = $1 AND status = 'open'`,
      [runId],
    );
    if (row.status !== 'cancelled')
      return { row, events: await events.appendIn(manager, runId, [statusEvent(row.status)]), parent: null };
    const ended = await events.appendIn(manager, runId, terminalEvents({ status: 'cancelled' }));
    return { row, events: ended, parent: await tellParentIn(manager, events, runId, row) };
  });
}
