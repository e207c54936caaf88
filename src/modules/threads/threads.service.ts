import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { canonicalDigest } from '../../common/crypto/canonical-digest.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { CommonErrors } from '../../common/errors/index.js';
import { decodeCursor, toPage, type Page } from '../../common/pagination/cursor.js';
import type { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { isForeignKeyViolation } from '../../database/unique-violation.js';
import type { EntityManager } from 'typeorm';
import { AgentsService } from '../agents/index.js';
import { WorkspaceService, workdirVirtualPath } from '../workspace/index.js';
import { ThreadDeletionChecks } from './deletion/thread-deletion-checks.js';
import { ThreadDto, type CreateThreadDto } from './dto/thread.dto.js';
import type { ThreadEntity } from './thread.entity.js';
import { ThreadsErrors } from './threads.errors.js';
import { ThreadsRepository } from './threads.repository.js';

/** The workdir slug of a thread: `/home/gem/user-data/workdir/t-<thread id>/`. */
export const projectOf = (threadId: string) => `t-${threadId}`;

/** A thread as other modules hold it: which thread, bound to which agent. */
export type ThreadRef = Pick<ThreadEntity, 'id' | 'agentSlug'>;

/** What a subagent's child thread is made from: its parent conversation, its agent, its creating call. */
export interface NewChildThread {
  parentThreadId: string;
  userId: string;
  agent: { id: string; slug: string };
  title: string;
  /** Idempotency key: a replayed creation returns the thread the first one made. */
  requestId: string;
}

export const workdirOf = (thread: Pick<ThreadEntity, 'project'>) => workdirVirtualPath(thread.project);

@Injectable()
export class ThreadsService {
  private readonly logger = new Logger(ThreadsService.name);

  constructor(
    private readonly threads: ThreadsRepository,
    private readonly agents: AgentsService,
    private readonly workspace: WorkspaceService,
    private readonly deletionChecks: ThreadDeletionChecks,
  ) {}

  async create(user: AuthenticatedUser, input: CreateThreadDto): Promise<ThreadDto> {
    const title = input.title?.trim() || 'New conversation';
    const requestId = input.request_id ?? null;
    const payloadDigest = canonicalDigest([input.agent_slug, title]);
    if (requestId !== null) {
      const existing = await this.threads.findByRequest(user.id, requestId);
      if (existing !== null) return this.replay(existing, payloadDigest, requestId);
    }
    // Subagents run only as children of a parent run, never in a chat thread of their own.
    // Only "not readable" is an unknown agent; a database outage propagates (503).
    const agent = await this.agents.findUsable(user, input.agent_slug);
    if (agent === null || agent.isSubagent) throw ThreadsErrors.unknownAgent(input.agent_slug);
    const id = randomUUID();
    const row = await this.threads
      .insertOrGetByRequest({
        id,
        userId: user.id,
        agentId: agent.id,
        agentSlug: agent.slug,
        title,
        project: projectOf(id),
        requestId,
        payloadDigest,
      })
      .catch((error: unknown) => {
        // The agent was deleted between the check and the insert.
        if (isForeignKeyViolation(error, 'threads_agent_id_fkey'))
          throw ThreadsErrors.unknownAgent(input.agent_slug);
        throw error;
      });
    return requestId === null
      ? ThreadDto.from(row, workdirOf(row))
      : this.replay(row, payloadDigest, requestId);
  }

  async list(user: AuthenticatedUser, query: PageQueryDto): Promise<Page<ThreadDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.threads.listOwnedPage(user.id, query.limit, after);
    return toPage(rows, query.limit, (t) => ThreadDto.from(t, workdirOf(t)));
  }

  /** The caller's thread, or 404 (another user's thread is never revealed). */
  async getOwned(user: AuthenticatedUser, id: string): Promise<ThreadEntity> {
    const thread = await this.threads.findOwned(user.id, id);
    if (thread === null) throw ThreadsErrors.notFound();
    return thread;
  }

  /** The agent (by id) of `userId`'s thread `id`; null when the thread is not theirs or its agent is gone. */
  async agentIdOf(userId: string, id: string): Promise<string | null> {
    return (await this.threads.findOwned(userId, id))?.agentId ?? null;
  }

  async get(user: AuthenticatedUser, id: string): Promise<ThreadDto> {
    const thread = await this.getOwned(user, id);
    return ThreadDto.from(thread, workdirOf(thread));
  }

  /**
   * A subagent's child thread: the user's, under the parent conversation, sharing its project workdir
   * (same files, not a copy); only its checkpoint is its own. Not listed with the user's threads.
   */
  async createChild(input: NewChildThread): Promise<ThreadRef> {
    const parent = await this.threads.findOwned(input.userId, input.parentThreadId);
    if (parent === null) throw ThreadsErrors.notFound();
    const row = await this.threads.insertOrGetByRequest({
      id: randomUUID(),
      userId: input.userId,
      agentId: input.agent.id,
      agentSlug: input.agent.slug,
      title: input.title,
      project: parent.project,
      parentThreadId: parent.id,
      requestId: input.requestId,
      payloadDigest: canonicalDigest([parent.id, input.agent.slug]),
    });
    return { id: row.id, agentSlug: row.agentSlug };
  }

  /** The user's child thread of `parentThreadId` for this subagent slug, or null (any other thread). */
  async findChild(
    userId: string,
    id: string,
    parentThreadId: string,
    agentSlug: string,
  ): Promise<ThreadRef | null> {
    const thread = await this.threads.findOwned(userId, id);
    if (thread === null || thread.parentThreadId !== parentThreadId || thread.agentSlug !== agentSlug)
      return null;
    return { id: thread.id, agentSlug: thread.agentSlug };
  }

  /** The project (workdir slug) of a thread: a child thread's is its parent's. Null if it is gone. */
  async projectOfThread(id: string): Promise<string | null> {
    return (await this.threads.findById(id))?.project ?? null;
  }

  /** Those of `ids` that name no thread: deleted ones, whose leftovers elsewhere may go. */
  deletedAmong(ids: readonly string[]): Promise<string[]> {
    return this.threads.missingAmong(ids);
  }

  /**
   * Takes the thread for a new run, inside the caller's transaction: its row is locked FOR UPDATE, so
   * run creations on one thread take turns until that transaction ends. Returns the id of the thread's
   * agent as of the lock (not as read before: an agent deleted meanwhile has nulled it);
   * `threads.not_found` if the thread is gone, `threads.agent_deleted` if its agent is.
   */
  async lockForRun(manager: EntityManager, thread: ThreadRef): Promise<string> {
    const locked = await this.threads.lockIn(manager, thread.id);
    if (locked === null) throw ThreadsErrors.notFound();
    if (locked.agentId === null) throw ThreadsErrors.agentDeleted(thread.id, thread.agentSlug);
    return locked.agentId;
  }

  async rename(user: AuthenticatedUser, id: string, title: string): Promise<ThreadDto> {
    await this.getOwned(user, id);
    await this.threads.rename(user.id, id, title.trim());
    return this.get(user, id);
  }

  /**
   * Deletes the thread and then its workdir. Refused (409 `threads.run_active`) while one of its runs has
   * not finished (queued, running, waiting for an answer, being cancelled): that run could still write
   * into the workdir. A subagent's child thread shares its parent's workdir, which stays.
   */
  async delete(user: AuthenticatedUser, id: string): Promise<void> {
    const thread = await this.getOwned(user, id);
    const deleted = await this.threads.deleteOwned(user.id, id, async (manager) => {
      const run = await this.deletionChecks.blockingRun(manager, id);
      if (run !== null) throw ThreadsErrors.runActive(id, run.id, run.status);
    });
    if (!deleted) throw ThreadsErrors.notFound();
    if (thread.parentThreadId !== null) return;
    await this.workspace.deleteWorkdir(user, thread.project).catch((error: Error) => {
      // The thread is gone either way; what is left over still counts in the quota until removed.
      this.logger.warn({ err: error.message, thread_id: id }, 'could not delete the workdir of a thread');
    });
  }

  private replay(row: ThreadEntity, payloadDigest: string, requestId: string): ThreadDto {
    if (row.payloadDigest !== payloadDigest) throw CommonErrors.requestIdConflict(requestId);
    return ThreadDto.from(row, workdirOf(row));
  }
}
