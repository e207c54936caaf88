import { Injectable } from '@nestjs/common';
import { ActivatedSkillsReader } from '../graph/activated-skills-reader.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrors } from '../../../common/errors/index.js';
import type { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { ArtifactsService } from '../../artifacts/index.js';
import { ThreadsService } from '../../threads/index.js';
import type { CreateRunDto, RunAcceptedDto } from '../dto/run.dto.js';
import { RunDto } from '../dto/run.dto.js';
import { MessageDto, type MessagePageDto } from '../dto/message.dto.js';
import type { ThreadStateDto } from '../dto/thread-state.dto.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import { RunCancellation } from './run-cancellation.js';
import { RunStarter } from './run-starter.js';
import { isTerminal } from './run-status.js';
import type { RunEntity } from './run.entity.js';
import { RunsErrors } from './runs.errors.js';
import { RunsRepository } from './runs.repository.js';
import { WaitingPointDto } from '../questions/waiting-point.dto.js';
import { WaitingPoints } from '../questions/waiting-points.js';
import { UsageReports } from '../usage/usage-reports.js';

export const streamUrlOf = (runId: string) => `/api/runs/${runId}/events`;

/** The owner's view of runs: create, read, cancel; a thread's messages and state. */
@Injectable()
export class RunsService {
  constructor(
    private readonly activatedSkills: ActivatedSkillsReader,
    private readonly threads: ThreadsService,
    private readonly runs: RunsRepository,
    private readonly starter: RunStarter,
    private readonly cancellation: RunCancellation,
    private readonly messages: MessagesRepository,
    private readonly artifacts: ArtifactsService,
    private readonly waitingPoints: WaitingPoints,
    private readonly usage: UsageReports,
  ) {}

  async create(user: AuthenticatedUser, threadId: string, input: CreateRunDto): Promise<RunAcceptedDto> {
    const { run, queuePosition } = await this.starter.start(user, threadId, {
      input: input.input,
      queuePolicy: input.queue_policy ?? 'enqueue',
      model: input.model ?? null,
      requestId: input.request_id ?? null,
    });
    return {
      run_id: run.id,
      status: run.status,
      queue_position: isTerminal(run.status) ? 0 : queuePosition,
      stream_url: streamUrlOf(run.id),
    };
  }

  /** The caller's run, or 404 (another user's run is never revealed). */
  async getOwned(user: AuthenticatedUser, runId: string): Promise<RunEntity> {
    const run = await this.runs.findOwned(user.id, runId);
    if (run === null) throw RunsErrors.notFound();
    return run;
  }

  /** `runs.not_found` unless the run is the caller's (what a stream needs: no row is loaded). */
  async assertOwned(user: AuthenticatedUser, runId: string): Promise<void> {
    if (!(await this.runs.isOwned(user.id, runId))) throw RunsErrors.notFound();
  }

  async get(user: AuthenticatedUser, runId: string): Promise<RunDto> {
    return this.dtoOf(await this.getOwned(user, runId));
  }

  private async dtoOf(run: RunEntity): Promise<RunDto> {
    const usage = await this.usage.runTotals([run.id]);
    return RunDto.from(run, usage.get(run.id)!);
  }

  async cancel(user: AuthenticatedUser, runId: string): Promise<RunDto> {
    const run = await this.getOwned(user, runId);
    await this.cancellation.cancel(run);
    return this.dtoOf(await this.getOwned(user, runId));
  }

  async messagesOf(user: AuthenticatedUser, threadId: string, query: PageQueryDto): Promise<MessagePageDto> {
    await this.threads.getOwned(user, threadId);
    const after = query.cursor === undefined ? null : decodePosition(query.cursor);
    const rows = await this.messages.listPage(threadId, after, query.limit);
    const hasMore = rows.length > query.limit;
    const items = hasMore ? rows.slice(0, query.limit) : rows;
    return {
      items: items.map((row) => MessageDto.from(row)),
      next_cursor: hasMore ? encodePosition(items[items.length - 1].position) : null,
    };
  }

  async stateOf(user: AuthenticatedUser, threadId: string): Promise<ThreadStateDto> {
    await this.threads.getOwned(user, threadId);
    const [active] = await this.runs.activeInThread(threadId);
    const artifacts = await this.artifacts.listForThread(threadId, user.id);
    const waiting = active?.status === 'waiting' ? await this.waitingPoints.open(active.id) : null;
    return {
      active_run: active === undefined ? null : await this.dtoOf(active),
      ...(waiting === null ? {} : { waiting_point: WaitingPointDto.from(waiting) }),
      artifacts: artifacts.map((a) => ({
        path: a.path,
        run_id: a.runId,
        created_at: a.createdAt.toISOString(),
      })),
      activated_skills: await this.activatedSkills.of(threadId),
    };
  }
}

function encodePosition(position: string): string {
  return Buffer.from(`p:${position}`).toString('base64url');
}

/** The largest `messages.position` (bigint): a bigger one would fail in PostgreSQL, not as a 400. */
const MAX_POSITION = 9_223_372_036_854_775_807n;

function decodePosition(cursor: string): string {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^p:\d{1,19}$/.test(raw) || BigInt(raw.slice(2)) > MAX_POSITION)
    throw CommonErrors.validationFailed([{ field: 'cursor', messages: ['cursor is not valid'] }]);
  return raw.slice(2);
}
