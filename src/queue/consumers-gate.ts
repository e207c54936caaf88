import { Injectable } from '@nestjs/common';

/**
 * Opened by the entrypoint once the application logger is attached. Nest buffers log lines until then
 * (`bufferLogs`) and replays them outside any async context, so a job taken during start-up would lose
 * the fields its log context adds (`run_id`, `request_id`); consumers start taking jobs only once open.
 */
@Injectable()
export class ConsumersGate {
  private release!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  open(): void {
    this.release();
  }
}
