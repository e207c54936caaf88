import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { DataSource } from 'typeorm';
import { RunAuthorization } from '../../agent-runtime/index.js';
import type { ToolInvocation } from '../../tools/index.js';
import { ImprovementMarksErrors } from '../improvement-marks.errors.js';
import { ImprovementMarksRepository } from '../improvement-marks.repository.js';

export type SavedMark = {
  id: string;
  run_id: string;
  saved: true;
};

/**
 * The longest tool_call_id a mark keeps, in UTF-8 bytes: the column is text, but the id is part of the
 * unique (run, tool call) index, whose entries PostgreSQL caps near 2.7 kB.
 */
const TOOL_CALL_ID_MAX_BYTES = 2000;

/**
 * Saves a mark for the run and tool call of the invocation, never for ids taken from arguments. One
 * transaction: the run's lease, the account and the agent access are re-checked (`RunAuthorization`,
 * rows locked FOR SHARE, so none can change before the commit; a revocation ends the run, not just the
 * call), then the mark is inserted. The run and tool call id are the idempotency key: a replay with the same reason returns the
 * same id, another reason is a conflict.
 */
@Injectable()
export class MarkRecorder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly marks: ImprovementMarksRepository,
    private readonly authorization: RunAuthorization,
  ) {}

  async record(invocation: ToolInvocation, reason: string): Promise<SavedMark> {
    const { context, toolCallId } = invocation;
    if (!hasRealRun(context.runId, context.leaseToken, toolCallId))
      throw ImprovementMarksErrors.runContextMissing();
    const mark = await this.dataSource.transaction(async (manager) => {
      const run = await this.authorization.holdLeaseIn(manager, context.runId, context.leaseToken);
      if (run.userId !== context.user.id || run.threadId !== context.threadId)
        throw ImprovementMarksErrors.runMismatch();
      await this.authorization.actorAndAgent(run, manager);
      return this.marks.insertOrGetIn(manager, {
        runId: context.runId,
        toolCallId,
        agentSlug: run.agentSlug,
        userId: run.userId,
        threadId: run.threadId,
        reason,
      });
    });
    if (mark.reason !== reason) throw ImprovementMarksErrors.conflict(mark.id, context.runId, toolCallId);
    return { id: mark.id, run_id: context.runId, saved: true };
  }
}

/** A run id and lease token as the runtime makes them (UUIDs) and a model's tool_call_id. */
function hasRealRun(runId: unknown, leaseToken: unknown, toolCallId: unknown): boolean {
  return (
    isUUID(runId) &&
    isUUID(leaseToken) &&
    typeof toolCallId === 'string' &&
    toolCallId.trim().length > 0 &&
    Buffer.byteLength(toolCallId) <= TOOL_CALL_ID_MAX_BYTES
  );
}
