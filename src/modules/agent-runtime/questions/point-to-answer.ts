import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrorCode } from '../../../common/errors/index.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import type { RunEntity } from '../runs/run.entity.js';
import { RunsErrors, RunsErrorCode } from '../runs/runs.errors.js';
import type { RunsService } from '../runs/runs.service.js';
import type { WaitingPointEntity, WaitingPointKind } from './waiting-point.entity.js';
import type { WaitingPoints } from './waiting-points.js';

/**
 * The caller's run and its latest waiting point, which an answer of `kind` may go to: 404 for another
 * user's run or a run that never waited, 409 for a cancelled point or one of the other kind. Whether
 * it is still open is settled under the run's lock when the answer is written.
 */
export async function pointToAnswer(
  runs: RunsService,
  points: WaitingPoints,
  user: AuthenticatedUser,
  runId: string,
  kind: WaitingPointKind,
): Promise<{ run: RunEntity; point: WaitingPointEntity }> {
  const run = await runs.getOwned(user, runId);
  const point = await points.latest(runId);
  if (point === null) throw RunsErrors.noWaitingPoint();
  if (point.status === 'cancelled') throw RunsErrors.notWaiting();
  if (point.kind !== kind) throw RunsErrors.waitingPointKindMismatch(point.kind);
  return { run, point };
}

/** The errors of a route that answers a waiting point (questions or approvals), for Swagger. */
export const ApiAnswerErrors = () =>
  ApiErrors(
    [404, RunsErrorCode.NOT_FOUND, RunsErrorCode.WAITING_POINT_NOT_FOUND],
    [
      409,
      RunsErrorCode.ALREADY_ANSWERED,
      RunsErrorCode.NOT_WAITING,
      RunsErrorCode.WAITING_POINT_KIND_MISMATCH,
      CommonErrorCode.REQUEST_ID_CONFLICT,
      CommonErrorCode.CONCURRENT_UPDATE,
    ],
    503,
  );
