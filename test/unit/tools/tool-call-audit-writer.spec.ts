import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type {
  NewToolCallRecord,
  ToolCallAuditRepository,
} from '../../../src/modules/tools/execution/audit/tool-call-audit.repository';

function row(i: number): NewToolCallRecord {
  return {
    runId: 'r',
    threadId: 't',
    toolCallId: `c-${i}`,
    toolName: 'x',
    userId: 'u',
    argsDigest: '0'.repeat(64),
    outcome: 'ok',
    errorCode: null,
    durationMs: 1,
  };
}

class FlakyRepository {
  written: NewToolCallRecord[] = [];
  failuresLeft = 0;
  insertMany(records: NewToolCallRecord[]): Promise<void> {
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      return Promise.reject(new Error('connection refused'));
    }
    this.written.push(...records);
    return Promise.resolve();
  }
}

describe('ToolCallAuditWriter', () => {
  it('writes recorded rows in one batch shortly after, without the caller waiting', async () => {
    const repository = new FlakyRepository();
    const writer = new ToolCallAuditWriter(repository as unknown as ToolCallAuditRepository);
    for (let i = 0; i < 3; i++) writer.record(row(i));
    expect(repository.written).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 120));
    expect(repository.written.map((r) => r.toolCallId)).toEqual(['c-0', 'c-1', 'c-2']);
  });

  it('keeps rows when the database fails and writes them on a later flush, in order', async () => {
    const repository = new FlakyRepository();
    repository.failuresLeft = 1;
    const writer = new ToolCallAuditWriter(repository as unknown as ToolCallAuditRepository);
    writer.record(row(1));
    writer.record(row(2));
    await writer.flush();
    expect(repository.written).toHaveLength(0);
    writer.record(row(3));
    await writer.flush();
    expect(repository.written.map((r) => r.toolCallId)).toEqual(['c-1', 'c-2', 'c-3']);
    await writer.onApplicationShutdown();
  });
});
