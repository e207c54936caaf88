import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, MoreThan, Repository } from 'typeorm';
import { LeaseLostError } from '../runs/runs.errors.js';
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

/** The column values of `INSERT INTO messages (id, thread_id, run_id, role, content, tool_calls, tool_call_id, name)`. */
export const messageColumns = (m: NewMessage) => [
  m.id,
  m.threadId,
  m.runId,
  m.role,
  m.content,
  m.toolCalls == null ? null : JSON.stringify(m.toolCalls),
  m.toolCallId ?? null,
  m.name ?? null,
];

/**
 * `INSERT INTO messages … SELECT … FROM <from>` for a CTE of a larger statement (the message is stored
 * only if `from` has a row); `param` binds a value and returns its placeholder. A message already
 * stored under its id (a re-executed step) is kept as it is.
 */
export function messageInsertSql(
  message: NewMessage,
  param: (value: unknown) => string,
  from: string,
): string {
  const [id, threadId, runId, role, content, toolCalls, toolCallId, name] =
    messageColumns(message).map(param);
  return `INSERT INTO messages (id, thread_id, run_id, role, content, tool_calls, tool_call_id, name)
         SELECT ${id}, ${threadId}, ${runId}, ${role}, ${content}, ${toolCalls}::jsonb, ${toolCallId}, ${name}
           FROM ${from}
         ON CONFLICT (id) DO NOTHING`;
}

@Injectable()
export class MessagesRepository {
  constructor(
    @InjectRepository(MessageEntity) private readonly rows: Repository<MessageEntity>,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Inserts a message of a running run, fenced by its lease; a message already stored under the same
   * id (a re-executed step) is kept as it is.
   */
  async insertFenced(message: NewMessage, leaseToken: string): Promise<void> {
    const inserted = await this.dataSource.query<unknown[]>(
      `WITH held AS (SELECT 1 FROM runs WHERE id = $3 AND lease_token = $9)
       INSERT INTO messages (id, thread_id, run_id, role, content, tool_calls, tool_call_id, name)
       SELECT $1, $2, $3, $4, $5, $6::jsonb, $7, $8 FROM held
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [...messageColumns(message), leaseToken],
    );
    if (inserted.length > 0) return;
    const [held] = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM runs WHERE id = $1 AND lease_token = $2`,
      [message.runId, leaseToken],
    );
    if (held === undefined) throw new LeaseLostError(message.runId);
  }

  /** Stored messages among `ids` (tool results of a step that already ran). */
  findByIds(ids: string[]): Promise<MessageEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.rows.findBy({ id: In(ids) });
  }

  /**
   * Drops assistant messages a lost worker stored for model calls its checkpoint never recorded (the
   * call is made again). Tool results are kept: their ids are stable, so they are reused, not re-run.
   */
  async deleteUncheckpointedAssistant(runId: string, checkpointed: string[]): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM messages WHERE run_id = $1 AND role = 'assistant' AND NOT (id::text = ANY($2::text[]))`,
      [runId, checkpointed],
    );
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
