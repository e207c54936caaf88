import { PipelinedTransaction } from '../../../database/pipelined-transaction.js';
import { IN_FLIGHT_STATUSES } from './run-status.js';

/**
 * A user's runs in flight (running or being cancelled) are capped (`RUN_MAX_IN_FLIGHT_PER_USER`), so one
 * user's hundreds of runs cannot take every worker slot from another user's one. This file is the one
 * definition of that rule:
 *
 * - the claim of a run holds its user's slot lock and counts the user's runs in flight; at the cap it
 *   claims nothing and marks the run `held_at` (its job ends; the run stays queued);
 * - a run that leaves flight (ends, parks, is handed back or recovered) takes the same lock and clears
 *   the mark of the user's oldest held runs, as many as there are free slots, to be dispatched again;
 * - the reconciler dispatches only runs whose user has a free slot, so held runs cause no churn.
 *
 * The two writes are in `run-sql.ts` (`RUN_SLOT_SQL`). The lock makes both exact across processes: a claim and a departure of one user are serialized, and
 * each statement after the lock sees what the other committed (READ COMMITTED takes a snapshot per
 * statement), so no claim exceeds the cap and no held run is left behind by a slot freed meanwhile.
 */

/** `IN_FLIGHT_STATUSES` as an SQL list. */
const IN_FLIGHT_LIST = `('${IN_FLIGHT_STATUSES.join("','")}')`;

/** The number of runs in flight of user `userColumn` (an SQL expression). */
export const inFlightOf = (userColumn: string) =>
  `(SELECT count(*) FROM runs f WHERE f.user_id = ${userColumn} AND f.status IN ${IN_FLIGHT_LIST})`;

/** Takes the slot lock of the user of run `runId` until the transaction ends. */
export function lockSlotsOfRun(runId: string): string {
  return `SELECT pg_advisory_xact_lock(hashtext('run_slots:' || user_id::text)) FROM runs
    WHERE id = ${PipelinedTransaction.literal(runId)}`;
}
