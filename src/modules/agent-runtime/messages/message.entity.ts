import { Column, CreateDateColumn, Entity, ForeignKey, Generated, Index, PrimaryColumn } from 'typeorm';

export type MessageRole = 'user' | 'assistant' | 'tool';

export interface MessageToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A message of a thread as clients read it (`GET /api/threads/:id/messages`), oldest first. */
@Entity({ name: 'messages' })
@Index('messages_thread_position_idx', ['threadId', 'position'])
@Index('messages_run_idx', ['runId'])
export class MessageEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey('threads', { onDelete: 'CASCADE' })
  threadId: string;

  @Column({ type: 'uuid' })
  runId: string;

  /** Insertion order within the database: the thread's reading order. */
  @Column({ type: 'bigint' })
  @Generated('increment')
  position: string;

  @Column({ type: 'varchar', length: 16 })
  role: MessageRole;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'jsonb', nullable: true })
  toolCalls: MessageToolCall[] | null;

  /** Model-sent, any length. */
  @Column({ type: 'text', nullable: true })
  toolCallId: string | null;

  /** The tool's name, for tool messages (model-sent, any length). */
  @Column({ type: 'text', nullable: true })
  name: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
