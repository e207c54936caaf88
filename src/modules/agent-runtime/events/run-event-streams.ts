import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { AppConfig } from '../../../config/app-config.js';
import { Metrics } from '../../../observability/metrics/index.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { RunsService } from '../runs/runs.service.js';
import { isTerminal } from '../runs/run-status.js';
import { RunEventBus } from './run-event-bus.js';
import { RunEventFollower } from './run-event-follower.js';
import { RunEventStore } from './run-event-store.js';
import type { RunEvent } from './run-event.js';
import { RunStreamSlots } from './run-stream-slots.js';
import { SseWriter } from './sse-writer.js';
import { StreamTeardown } from './stream-teardown.js';

const frame = (event: RunEvent) =>
  `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** An open stream as this process knows it, to end it at shutdown. */
interface OpenStream {
  writer: SseWriter;
  res: Response;
  teardown: StreamTeardown;
}

/**
 * Serves `GET /api/runs/:id/events`: ownership, a slot under the per-user cap, then the follower
 * writing through one drain-aware writer, with heartbeats. Every resource is registered with the
 * stream's teardown as it is taken, and the teardown runs when the client goes (wired before the first
 * await), when the run's stream ends, on failure and at shutdown; so a client that leaves at any point
 * leaves no listener, timer, query or slot behind.
 */
@Injectable()
export class RunEventStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger(RunEventStreams.name);
  private readonly open = new Set<OpenStream>();

  constructor(
    private readonly runsService: RunsService,
    private readonly runs: RunsRepository,
    private readonly store: RunEventStore,
    private readonly bus: RunEventBus,
    private readonly slots: RunStreamSlots,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** Streams open in this process. */
  get openCount(): number {
    return this.open.size;
  }

  async serve(user: AuthenticatedUser, runId: string, afterSeq: number, res: Response): Promise<void> {
    const teardown = new StreamTeardown();
    // Before any await: the client going away only stops this stream; the run goes on.
    res.once('close', () => void teardown.run());
    const gone = () => teardown.done || res.destroyed || res.socket?.destroyed === true;
    try {
      await this.runsService.assertOwned(user, runId);
      if (gone()) return;
      const slot = await this.slots.acquire(user.id);
      teardown.add(() => slot.release());
      if (gone()) return void (await teardown.run());
      this.start(runId, afterSeq, res, teardown, () => slot.refresh());
    } catch (error) {
      await teardown.run();
      // Headers not sent yet: the global filter answers with the error envelope.
      throw error;
    }
  }

  /** Ends every open stream (clients reconnect with their last event id) and gives their slots back. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(
      [...this.open].map(async ({ writer, res, teardown }) => {
        if (writer.idle) await writer.end();
        else res.destroy();
        await teardown.run();
      }),
    );
  }

  private start(
    runId: string,
    afterSeq: number,
    res: Response,
    teardown: StreamTeardown,
    refreshSlot: () => void,
  ): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    const writer = new SseWriter(res, this.config.runtime.sseWriteTimeoutSeconds * 1000);
    const stream: OpenStream = { writer, res, teardown };
    this.open.add(stream);
    this.metrics.sseStreamOpened();
    teardown.add(() => {
      if (this.open.delete(stream)) this.metrics.sseStreamClosed();
    });
    const endStream = () => void writer.end().then(() => teardown.run());

    const follower = new RunEventFollower(
      runId,
      afterSeq,
      this.store,
      this.bus,
      {
        send: (event) => writer.write(frame(event)),
        end: endStream,
        failed: (error) =>
          this.logger.warn({ run_id: runId, err: (error as Error).message }, 'run event stream failed'),
      },
      async () => {
        const status = await this.runs.statusOf(runId);
        return status === null || isTerminal(status);
      },
    );
    teardown.add(() => follower.close());

    const heartbeat = setInterval(() => {
      // A client that is not reading has bytes pending already: a heartbeat would only add to them.
      if (writer.idle) void writer.write(': heartbeat\n\n');
      follower.checkEnded();
      refreshSlot();
    }, this.config.runtime.sseHeartbeatSeconds * 1000);
    teardown.add(() => clearInterval(heartbeat));

    follower.start().catch((error: Error) => {
      // Headers are sent: end the stream; the client reconnects with its last event id.
      this.logger.warn({ run_id: runId, err: error.message }, 'run event stream could not start');
      endStream();
    });
  }
}
