import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { canonicalDigest } from '../../../common/crypto/canonical-digest.js';
import { AppConfig } from '../../../config/app-config.js';
import { CommonErrors } from '../../../common/errors/index.js';
import { currentRequestId } from '../../../common/request-id/request-context.js';
import { activeTraceparent } from '../../../observability/tracing/index.js';
import { isUniqueViolation } from '../../../database/unique-violation.js';
import { ThreadsService, type ThreadRef } from '../../threads/index.js';
import { RunEntity } from './run.entity.js';
import { RunsErrors } from './runs.errors.js';
import { RunsRepository } from './runs.repository.js';
import { RunTransitions } from './run-transitions.js';

export interface NewRunRequest {
  input: string;
  queuePolicy: 'enqueue' | 'reject';
  model: string | null;
  requestId: string | null;
  /**
   * A subagent's child run: the parent run creating it, under the lease it holds. The parent's
   * `subagent` started event is written in the creation's transaction (fenced by that lease), so a
   * replayed start finds the child and its announcement together and adds neither again.
   */
  parent?: { runId: string; leaseToken: string };
}

export interface CreatedRun {
  run: RunEntity;
  queuePosition: number;
}

/**
 * Creates a run: the run row, its user message and its first event are committed in one transaction
 * (serialized per thread), and only then is the run enqueued, if it holds the thread. A run behind
 * others is enqueued when the one before it leaves the thread.
 */
@Injectable()
export class RunCreation {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: RunsRepository,
    private readonly threads: ThreadsService,
    private readonly transitions: RunTransitions,
    private readonly config: AppConfig,
  ) {}

  async create(userId: string, thread: ThreadRef, request: NewRunRequest): Promise<CreatedRun> {
    const digest = canonicalDigest([thread.id, request.input, request.queuePolicy, request.model]);
    if (request.requestId !== null) {
      const existing = await this.runs.findByRequest(userId, request.requestId);
      if (existing !== null) return this.replay(existing, digest, request.requestId);
    }
    let created:
      { run: RunEntity; position: number; afterCommit: () => Promise<void> } | { existing: RunEntity };
    try {
      created = await this.insert(userId, thread, request, digest);
    } catch (error) {
      if (request.requestId === null || !isUniqueViolation(error, 'runs_user_request_key')) throw error;
      const existing = await this.runs.findByRequest(userId, request.requestId);
      if (existing === null) throw error;
      return this.replay(existing, digest, request.requestId);
    }
    if ('existing' in created) return this.replay(created.existing, digest, request.requestId!);
    await created.afterCommit();
    return { run: created.run, queuePosition: created.position };
  }

  private insert(userId: string, thread: ThreadRef, request: NewRunRequest, digest: string) {
    return this.dataSource.transaction(async (manager) => {
      if (request.requestId !== null) {
        // Creations under one request id take turns, so a later one finds the first run instead of
        // inserting the same key again: that insert waits on the worker updating the first run, and
        // deadlocks with it (a 500 for the caller, or a claim lost until the reconciler).
        await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
          `runs:request:${userId}:${request.requestId}`,
        ]);
        const existing = await manager
          .getRepository(RunEntity)
          .findOneBy({ userId, requestId: request.requestId });
        if (existing !== null) return { existing };
      }
      const limit = this.config.runtime.maxActiveRunsPerUser;
      if ((await this.runs.lockAndCountWorkerBoundIn(manager, userId)) >= limit)
        throw RunsErrors.tooManyActiveRuns(limit);
      const agentId = await this.threads.lockForRun(manager, thread);
      const active = await this.runs.activeInThread(thread.id, manager);
      // A run parked in subagent_await waits for its children, not for the user: it queues like a running one.
      const waiting = active.find((run) => run.status === 'waiting' && run.awaitedRunIds === null);
      if (waiting !== undefined) throw RunsErrors.waitingForAnswer(waiting.id);
      if (request.queuePolicy === 'reject' && active.length > 0) throw RunsErrors.threadBusy(active[0].id);
      const runId = randomUUID();
      const { run, afterCommit } = await this.transitions.createIn(
        manager,
        {
          id: runId,
          threadId: thread.id,
          userId,
          agentSlug: thread.agentSlug,
          agentId,
          input: request.input,
          model: request.model,
          parentRunId: request.parent?.runId ?? null,
          requestId: request.requestId,
          payloadDigest: digest,
          originRequestId: currentRequestId(),
          // The request's span, a parent run's tool call, a schedule's firing: its jobs continue it.
          originTraceparent: activeTraceparent(),
        },
        { id: randomUUID(), threadId: thread.id, runId, role: 'user', content: request.input },
        { headsThread: active.length === 0, parent: request.parent },
      );
      return { run, position: active.length, afterCommit };
    });
  }

  private async replay(existing: RunEntity, digest: string, requestId: string): Promise<CreatedRun> {
    if (existing.payloadDigest !== digest) throw CommonErrors.requestIdConflict(requestId);
    return { run: existing, queuePosition: await this.runs.queuePosition(existing) };
  }
}
