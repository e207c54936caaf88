import { randomUUID } from 'node:crypto';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type { NewToolCallRecord } from '../../../src/modules/tools/execution/audit/tool-call-audit.repository';
import { TestContext } from '../../support/test-app';

describe('ToolCallAuditWriter', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await TestContext.start();
  });

  afterAll(async () => {
    await ctx.close();
  });

  const record = (overrides: Partial<NewToolCallRecord>): NewToolCallRecord => ({
    runId: randomUUID(),
    threadId: randomUUID(),
    toolCallId: `call_${randomUUID()}`,
    toolName: 'probe',
    userId: randomUUID(),
    argsDigest: 'a'.repeat(64),
    outcome: 'ok',
    errorCode: null,
    durationMs: 1,
    ...overrides,
  });

  it('drops a row the database refuses and still writes the rows batched with it', async () => {
    const writer = ctx.app.get(ToolCallAuditWriter);
    const good = [record({}), record({})];
    writer.record(good[0]);
    writer.record(record({ runId: 'not-a-uuid' }));
    writer.record(record({ toolCallId: 'x'.repeat(300) }));
    writer.record(good[1]);
    await writer.flush();

    const rows = await ctx.dataSource.query<{ tool_call_id: string }[]>(
      `SELECT tool_call_id FROM tool_calls ORDER BY created_at`,
    );
    expect(rows.map((r) => r.tool_call_id).sort()).toEqual(good.map((g) => g.toolCallId).sort());
    // Nothing is left to retry: a later flush writes a new row at once.
    const later = record({});
    writer.record(later);
    await writer.flush();
    const [{ count }] = await ctx.dataSource.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM tool_calls WHERE tool_call_id = $1`,
      [later.toolCallId],
    );
    expect(count).toBe(1);
  });
});
