import { Injectable, Logger } from '@nestjs/common';
import { Clock } from './clock.js';
import { OccurrenceFiring } from './occurrence-firing.js';
import { ScheduleClaims } from './schedule-claims.js';

/** Schedules claimed per tick; more due ones wait for the next tick. */
const CLAIM_BATCH = 50;
/** A pending occurrence this old lost its worker mid-fire: any worker fires it again. */
const STALE_PENDING_SECONDS = 60;

/** One pass of the scheduler: claim the due periods, fire them, then fire those a dead worker left. */
@Injectable()
export class ScheduleTick {
  private readonly logger = new Logger(ScheduleTick.name);

  constructor(
    private readonly claims: ScheduleClaims,
    private readonly firing: OccurrenceFiring,
    private readonly clock: Clock,
  ) {}

  /** Returns the occurrences this pass fired. */
  async run(): Promise<number> {
    const claimed = await this.claims.claimDue(this.clock.now(), CLAIM_BATCH);
    const stale = await this.claims.stalePending(STALE_PENDING_SECONDS, CLAIM_BATCH);
    const ids = [...new Set([...claimed.map((c) => c.occurrenceId), ...stale])];
    let fired = 0;
    for (const id of ids) {
      try {
        if ((await this.firing.fire(id)) !== null) fired += 1;
      } catch (error) {
        // Left pending: fired again once stale, by this worker or another.
        this.logger.warn(
          { occurrence_id: id, err: (error as Error).message },
          'could not fire a schedule occurrence',
        );
      }
    }
    return fired;
  }
}
