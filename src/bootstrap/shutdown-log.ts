import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';

/** The last line a process writes on a graceful shutdown (after queues drained and servers closed). */
@Injectable()
export class ShutdownLog implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  onApplicationShutdown(signal?: string): void {
    this.logger.log({ signal: signal ?? null }, 'shutdown complete');
  }
}
