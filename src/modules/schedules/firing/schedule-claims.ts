import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CronRule } from '../cron/cron-rule.js';

/** A period claimed for firing: its occurrence row exists, `pending`. */
export interface ClaimedOccurrence {
  occurrenceId: string;
  scheduleId: string;
  scheduledFor: Date;
}

interface DueRow {
  id: string;
  cron: string;
  timezone: string;
  next_run_at: Date;
}

/**
 * Claims due periods in PostgreSQL, so any number of workers fire each period once, with no leader.
 * One transaction locks the due schedules (`FOR UPDATE SKIP LOCKED`: a schedule another worker is
 * claiming is passed over, not waited for), inserts one occurrence per schedule for the latest period
 * due (missed periods are coalesced into it) and moves `next_run_at` past now. A worker that finds the
 * schedule after that commit sees it not due; the unique key on (schedule, period) refuses a second row
 * for the same period whatever happens.
 */
@Injectable()
export class ScheduleClaims {
  private readonly logger = new Logger(ScheduleClaims.name);

  constructor(private readonly dataSource: DataSource) {}

  claimDue(now: Date, limit: number): Promise<ClaimedOccurrence[]> {
    return this.dataSource.transaction(async (manager) => {
      const due = await manager.query<DueRow[]>(
        `SELECT id, cron, timezone, next_run_at FROM schedules
          WHERE enabled AND next_run_at <= $1
          ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      const claimed: ClaimedOccurrence[] = [];
      for (const row of due) {
        const rule = CronRule.parse(row.cron, row.timezone);
        if (!(rule instanceof CronRule)) {
          // Validated when saved; a rule the library no longer reads must not block the others.
          this.logger.warn(
            { schedule_id: row.id, problems: rule },
            'schedule disabled: its cron is unreadable',
          );
          await manager.query(`UPDATE schedules SET enabled = false, next_run_at = NULL WHERE id = $1`, [
            row.id,
          ]);
          continue;
        }
        const period = rule.latestDue(row.next_run_at, now)!;
        const inserted = await manager.query<{ id: string }[]>(
          `INSERT INTO schedule_occurrences (id, schedule_id, kind, scheduled_for, status)
           VALUES ($1, $2, 'scheduled', $3, 'pending')
           ON CONFLICT (schedule_id, scheduled_for) WHERE kind = 'scheduled' DO NOTHING RETURNING id`,
          [randomUUID(), row.id, period],
        );
        await manager.query(`UPDATE schedules SET next_run_at = $2 WHERE id = $1`, [
          row.id,
          rule.nextAfter(now),
        ]);
        if (inserted.length === 1)
          claimed.push({ occurrenceId: inserted[0].id, scheduleId: row.id, scheduledFor: period });
      }
      return claimed;
    });
  }

  /** Occurrences claimed over `olderThanSeconds` ago and still pending: their worker died while firing. */
  async stalePending(olderThanSeconds: number, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM schedule_occurrences
        WHERE status = 'pending' AND created_at < now() - make_interval(secs => $1)
        ORDER BY created_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
    return rows.map((row) => row.id);
  }
}
