import { Clock } from '../../src/modules/schedules/firing/clock';
import { OccurrenceFiring } from '../../src/modules/schedules/firing/occurrence-firing';
import { ScheduleClaims } from '../../src/modules/schedules/firing/schedule-claims';
import { ScheduleTick } from '../../src/modules/schedules/firing/schedule-tick';
import type { TestContext } from './test-app';

/** A clock the test sets: the scheduler reads this time, no one sleeps. */
export class ManualClock extends Clock {
  constructor(private current: Date) {
    super();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date): void {
    this.current = new Date(at);
  }
}

/**
 * `count` schedulers as separate instances over the application's claim and firing services (one
 * database, its connection pool): what `count` worker processes run, each tick in its own transactions.
 */
export function schedulers(ctx: TestContext, clock: Clock, count: number): ScheduleTick[] {
  const claims = ctx.app.get(ScheduleClaims, { strict: false });
  const firing = ctx.app.get(OccurrenceFiring, { strict: false });
  return Array.from({ length: count }, () => new ScheduleTick(claims, firing, clock));
}

export interface OccurrenceRow {
  id: string;
  kind: string;
  scheduled_for: Date;
  status: string;
  reason: string | null;
  run_id: string | null;
  thread_id: string | null;
}

/** The schedule's occurrences as stored, oldest period first. */
export function occurrenceRows(ctx: TestContext, scheduleId: string): Promise<OccurrenceRow[]> {
  return ctx.dataSource.query<OccurrenceRow[]>(
    `SELECT id, kind, scheduled_for, status, reason, run_id, thread_id
       FROM schedule_occurrences WHERE schedule_id = $1 ORDER BY scheduled_for, created_at`,
    [scheduleId],
  );
}
