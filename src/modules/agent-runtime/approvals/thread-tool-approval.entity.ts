import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A tool the thread's owner approved for the whole thread (`remember: "thread"`): its calls are no
 * longer asked about there. Removed with the thread.
 */
@Entity({ name: 'thread_tool_approvals' })
export class ThreadToolApprovalEntity {
  @PrimaryColumn({ type: 'uuid' })
  threadId: string;

  /** The approval name: the tool's name, or `mcp:<server>:<tool>`. */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  tool: string;

  @Column({ type: 'uuid' })
  approvedBy: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
