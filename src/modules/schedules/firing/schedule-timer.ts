import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { ScheduleTick } from './schedule-tick.js';

/**
 * Runs `ScheduleTick` every `SCHEDULE_TICK_SECONDS` in each worker process. A plain timer, not a BullMQ
 * repeatable job: exactly-once rests on the claim in PostgreSQL, so every worker may look as often as
 * it likes, and no tick depends on Redis delivering a job (a lost or delayed job would delay periods).
 */
@Injectable()
export class ScheduleTimer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScheduleTimer.name);
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;

  constructor(
    private readonly tick: ScheduleTick,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.runOnce(), this.config.schedules.tickSeconds * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.current;
  }

  private runOnce(): void {
    if (this.current !== null) return; // the previous tick is still firing
    this.current = this.tick
      .run()
      .catch((error: Error) => this.logger.warn({ err: error.message }, 'schedule tick failed'))
      .finally(() => (this.current = null));
  }
}
