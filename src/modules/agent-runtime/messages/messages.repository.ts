import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThan, Repository } from 'typeorm';
import { RunStore } from '../runs/run-store.js';
import { MessageEntity, type MessageRole, type MessageToolCall } from './message.entity.js';

export interface NewMessage {
  id: string;
  threadId: string;
  runId: string;
  role: MessageRole;
  content: string;
  toolCalls?: MessageToolCall[] | null;
  toolCallId?: string | null;
  name?: string | null;
}

@Injectable()
export class MessagesRepository {
  constructor(
    @InjectRepository(MessageEntity) private readonly rows: Repository<MessageEntity>,
    private readonly store: RunStore,
  ) {}

  /** Stored messages among `ids` (tool results of a step that already ran). */
  findByIds(ids: string[]): Promise<MessageEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.rows.findBy({ id: In(ids) });
  }

  /**
   * Drops assistant messages a lost worker stored for model calls its checkpoint never recorded (the
   * call is made again). Tool results are kept: their ids are stable, so they are reused, not re-run.
   */
  deleteUncheckpointedAssistant(runId: string, checkpointed: string[]): Promise<void> {
    return this.store.deleteUncheckpointedReplies(runId, checkpointed);
  }

  /** The id of the run's user message (the checkpointed HumanMessage carries the same id). */
  async userMessageId(runId: string): Promise<string> {
    const row = await this.rows.findOneOrFail({ where: { runId, role: 'user' }, select: { id: true } });
    return row.id;
  }

  /** Oldest first, after `afterPosition`. */
  listPage(threadId: string, afterPosition: string | null, limit: number): Promise<MessageEntity[]> {
    return this.rows.find({
      where: { threadId, ...(afterPosition === null ? {} : { position: MoreThan(afterPosition) }) },
      order: { position: 'ASC' },
      take: limit + 1,
    });
  }

  /** The last assistant text of a run: the output `agent-calls` returns. */
  async finalOutput(runId: string): Promise<string | null> {
    const row = await this.rows.findOne({
      where: { runId, role: 'assistant' },
      order: { position: 'DESC' },
    });
    return row?.content ?? null;
  }

  /** A run's latest messages, newest first (a subagent's recent progress). */
  latestOfRun(runId: string, limit: number): Promise<MessageEntity[]> {
    return this.rows.find({ where: { runId }, order: { position: 'DESC' }, take: limit });
  }
}
