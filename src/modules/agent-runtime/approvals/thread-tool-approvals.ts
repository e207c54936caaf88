import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** The tools approved for a whole thread (`thread_tool_approvals`). */
@Injectable()
export class ThreadToolApprovals {
  constructor(private readonly dataSource: DataSource) {}

  async of(threadId: string): Promise<ReadonlySet<string>> {
    const rows = await this.dataSource.query<{ tool: string }[]>(
      `SELECT tool FROM thread_tool_approvals WHERE thread_id = $1`,
      [threadId],
    );
    return new Set(rows.map((row) => row.tool));
  }

  /** In the transaction that accepts the decisions. */
  async rememberIn(manager: EntityManager, threadId: string, tools: string[], by: string): Promise<void> {
    if (tools.length === 0) return;
    await manager.query(
      `INSERT INTO thread_tool_approvals (thread_id, tool, approved_by)
       SELECT $1, tool, $3 FROM unnest($2::text[]) AS tool
       ON CONFLICT (thread_id, tool) DO NOTHING`,
      [threadId, tools, by],
    );
  }
}
