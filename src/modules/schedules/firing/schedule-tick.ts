import { Injectable, Logger } from '@nestjs/common';
import { Clock } from './clock.js';
import { OccurrenceFiring } from './occurrence-firing.js';
import { ScheduleClaims } from './schedule-claims.js';

/** Schedules claimed per transaction; a tick claims batch after batch while they come full. */
const CLAIM_BATCH = 50;
/** Batches one tick claims at most, so a tick ends (and shutdown waits) in bounded time. */
const MAX_BATCHES = 20;
/** A pending occurrence this old lost its worker mid-fire: any worker fires it again. */
const STALE_PENDING_SECONDS = 60;

/**
 * One pass of the scheduler: claim the due periods and fire them, batch after batch, then fire the
 * occurrences a dead worker left pending.
 */
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
    let fired = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const claimed = await this.claims.claimDue(this.clock.now(), CLAIM_BATCH);
      fired += await this.fireAll(claimed.map((c) => c.occurrenceId));
      if (claimed.length < CLAIM_BATCH) break;
    }
    return fired + (await this.fireAll(await this.claims.stalePending(STALE_PENDING_SECONDS, CLAIM_BATCH)));
  }

  private async fireAll(ids: string[]): Promise<number> {
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
