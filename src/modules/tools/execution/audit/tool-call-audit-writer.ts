import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PgErrorClass, pgErrorCode } from '../../../../database/pg-error-codes.js';
import { ToolCallAuditRepository, type NewToolCallRecord } from './tool-call-audit.repository.js';

const FLUSH_DELAY_MS = 50;
const MAX_BATCH = 500;
/** Above this many unwritten records (the database is down), the oldest are dropped and counted. */
const MAX_PENDING = 20_000;

/**
 * Writes audit rows in batches, off the call's path: a call costs a push into memory, and rows reach
 * PostgreSQL within ~50 ms in one multi-row INSERT. Flushed on shutdown; `flush()` for readers that need
 * every row now. While the database is unreachable rows wait (bounded) and are retried.
 */
@Injectable()
export class ToolCallAuditWriter implements OnApplicationShutdown {
  private readonly logger = new Logger('ToolAudit');
  private pending: NewToolCallRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(private readonly repository: ToolCallAuditRepository) {}

  record(row: NewToolCallRecord): void {
    this.pending.push(row);
    if (this.pending.length > MAX_PENDING) {
      const excess = this.pending.length - MAX_PENDING;
      this.pending.splice(0, excess);
      this.dropped += excess;
    }
    if (this.pending.length >= MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes everything recorded so far; resolves when it is in the database (or failed and re-queued). */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Writes each row alone and drops those the database refuses; false when it became unreachable. */
  private async writeOneByOne(batch: NewToolCallRecord[]): Promise<boolean> {
    for (const [index, record] of batch.entries()) {
      try {
        await this.repository.insertMany([record]);
      } catch (error) {
        if (!isDataError(error)) {
          this.pending.unshift(...batch.slice(index));
          return false;
        }
        this.logger.error(
          { err: (error as Error).message, tool: record.toolName, run_id: record.runId },
          'tool call audit row refused by the database; dropped',
        );
      }
    }
    return true;
  }

  private async writePending(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      try {
        await this.repository.insertMany(batch);
      } catch (error) {
        // A row PostgreSQL refuses (bad id, too long) must not hold back the others forever.
        if (isDataError(error) && (await this.writeOneByOne(batch))) continue;
        if (!isDataError(error)) this.pending.unshift(...batch);
        this.logger.error(
          { err: error, pending: this.pending.length },
          'could not write tool call audit rows; will retry',
        );
        this.timer ??= setTimeout(() => void this.flush(), 1_000);
        return;
      }
    }
    if (this.dropped > 0) {
      this.logger.error(
        { dropped: this.dropped },
        'tool call audit rows dropped while the database was unreachable',
      );
      this.dropped = 0;
    }
  }
}

/** SQLSTATE class 22 (data exception) or 23 (integrity): retrying the same row can never succeed. */
function isDataError(error: unknown): boolean {
  const code = pgErrorCode(error);
  return (
    code !== undefined &&
    (code.startsWith(PgErrorClass.DATA_EXCEPTION) ||
      code.startsWith(PgErrorClass.INTEGRITY_CONSTRAINT_VIOLATION))
  );
}
