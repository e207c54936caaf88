import { Cron } from 'croner';

/** What is wrong with a cron or a time zone, per field, as `common.validation_failed` reports it. */
export interface CronProblem {
  field: 'cron' | 'timezone';
  message: string;
}

const FIELD_COUNT = 5;
/** Firings looked at for the shortest gap, at most. */
const GAP_SAMPLE = 600;
const GAP_WINDOW_MS = 8 * 24 * 3600 * 1000;
const MINUTE_SECONDS = 60;
/** Periods walked to find the latest one not after now, at most (a window's worth, normally). */
const MAX_WALK = 600_000;
const HOUR_MS = 3600 * 1000;
/** Windows before now searched for the latest due period, shortest first. */
const LOOKBACK_MS = [HOUR_MS, 24 * HOUR_MS, 35 * 24 * HOUR_MS, 400 * 24 * HOUR_MS];
const TIMEZONE_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * A schedule's cron read in its IANA time zone, by croner. Daylight saving follows croner: a wall-clock
 * time skipped when clocks go forward fires shifted by the gap (02:30 becomes 03:30); one repeated when
 * clocks go back fires once (`docs/internals.md` "Schedules" has the measured instants).
 */
export class CronRule {
  private constructor(private readonly cron: Cron) {}

  /** The rule, or the problems of its cron and time zone. */
  static parse(pattern: string, timezone: string): CronRule | CronProblem[] {
    const problems: CronProblem[] = [];
    if (!isTimeZone(timezone))
      problems.push({ field: 'timezone', message: 'timezone must be an IANA time-zone name' });
    const fields = pattern.trim().split(/\s+/);
    if (fields.length !== FIELD_COUNT || fields.some((field) => field.startsWith('@')))
      problems.push({
        field: 'cron',
        message: 'cron must have 5 fields: minute hour day-of-month month day-of-week',
      });
    if (problems.length > 0) return problems;
    try {
      return new CronRule(new Cron(fields.join(' '), { timezone, paused: true, legacyMode: true }));
    } catch (error) {
      return [{ field: 'cron', message: `cron is not valid: ${(error as Error).message}` }];
    }
  }

  /** The first period strictly after `after`, or null when the cron never fires again. */
  nextAfter(after: Date): Date | null {
    return this.cron.nextRun(after);
  }

  /**
   * The latest period in [`from`, `now`], or null when none is due: what one occurrence fires for
   * every period missed since `from` (they are coalesced). `from` counts as a period (it is the
   * schedule's `next_run_at`). The walk starts in the last hour before now, then the last day, month,
   * year, and only then at `from`, so a long outage costs a few steps, not one per missed period.
   */
  latestDue(from: Date, now: Date): Date | null {
    if (from > now) return null;
    for (const window of LOOKBACK_MS) {
      const start = new Date(Math.max(from.getTime(), now.getTime() - window));
      const first = start.getTime() === from.getTime() ? from : this.nextAfter(new Date(start.getTime() - 1));
      if (first !== null && first <= now) return this.lastUpTo(first, now);
    }
    return this.lastUpTo(from, now);
  }

  private lastUpTo(first: Date, now: Date): Date {
    let latest = first;
    for (let step = 0; step < MAX_WALK; step += 1) {
      const next = this.nextAfter(latest);
      if (next === null || next > now) return latest;
      latest = next;
    }
    return latest;
  }

  /**
   * The shortest gap, in seconds, between consecutive firings after `from` (null: fewer than two). It
   * looks at a week and a day of firings (every weekly pattern, and the step from each day to the next),
   * at most `GAP_SAMPLE` of them (two days of five-minute firings), and stops below `floorSeconds`
   * (the answer is then known to be too short) or at one minute, the least five fields can give.
   */
  shortestGapSeconds(from: Date, floorSeconds = MINUTE_SECONDS): number | null {
    const first = this.nextAfter(from);
    let previous = first;
    let shortest: number | null = null;
    for (let step = 0; previous !== null && step < GAP_SAMPLE; step += 1) {
      const next = this.nextAfter(previous);
      if (next === null) break;
      const gap = (next.getTime() - previous.getTime()) / 1000;
      if (shortest === null || gap < shortest) shortest = gap;
      if (
        shortest <= MINUTE_SECONDS ||
        shortest < floorSeconds ||
        next.getTime() - first!.getTime() > GAP_WINDOW_MS
      )
        break;
      previous = next;
    }
    return shortest;
  }
}

function isTimeZone(name: string): boolean {
  if (!TIMEZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
