import type { RunEventBus } from './run-event-bus.js';
import { RUN_EVENT_REPLAY_PAGE, type RunEventStore } from './run-event-store.js';
import type { RunEvent } from './run-event.js';

export interface FollowerSink {
  /** Resolves once the frame is handed to the socket: the next one waits for it (backpressure). */
  send(event: RunEvent): Promise<void>;
  /** After `done` was sent (or the stream failed): the stream is complete. */
  end(): void;
  /** Reading the table failed: the stream ends; the client reconnects with its last id. */
  failed?(error: unknown): void;
}

/**
 * Follows one run's events for one client: replays what is stored after `afterSeq`, then delivers live
 * events from the bus in sequence order, without gaps or duplicates. A live event that skips ahead (a
 * lost or reordered publish) makes it read the missing ones from the table; so does a Redis reconnect.
 * It subscribes before replaying, so nothing published in between is missed. No polling.
 *
 * Each frame waits until the client's socket took the previous one, and live events that arrive while
 * a delivery is waiting are not kept: one catch-up reads them from the table afterwards. So a client
 * that does not read costs a bounded amount of memory, whatever the run's length.
 */
export class RunEventFollower {
  private lastSeq: number;
  private closed = false;
  private unsubscribe: (() => void) | null = null;
  /** Work is serialized: replay, live deliveries and catch-ups never interleave. */
  private chain: Promise<void> = Promise.resolve();
  /** Work items queued or running. */
  private pending = 0;
  private catchUpQueued = false;
  private endCheckQueued = false;

  constructor(
    private readonly runId: string,
    afterSeq: number,
    private readonly store: RunEventStore,
    private readonly bus: RunEventBus,
    private readonly sink: FollowerSink,
    /** Whether the run has ended: a client that resumes after `done` gets nothing more and is closed. */
    private readonly hasEnded: () => Promise<boolean>,
    private readonly pageSize = RUN_EVENT_REPLAY_PAGE,
  ) {
    this.lastSeq = afterSeq;
  }

  async start(): Promise<void> {
    const unsubscribe = await this.bus.subscribe(this.runId, {
      onEvents: (events) => this.onLive(events),
      onResync: () => this.queueCatchUp(),
    });
    // Closed while subscribing (the client went away): nothing may stay subscribed.
    if (this.closed) return unsubscribe();
    this.unsubscribe = unsubscribe;
    this.enqueue(async () => {
      // The terminal status and `done` are committed together, so a replay that sent something has sent
      // `done` if the run had ended, or `done` is still to come live. Only an empty replay (resumed at or
      // past the end) asks whether the run is over: it then has nothing more to send.
      if ((await this.catchUp()) > 0 || this.closed) return;
      if (await this.hasEnded()) await this.catchUp().then(() => this.finish());
    });
    await this.chain;
  }

  /**
   * A safety net for a lost final publish (Redis up, message dropped): if the run has ended, read what
   * is left and finish. Called on each heartbeat, so a stream never outlives its run by more than that.
   */
  checkEnded(): void {
    if (this.endCheckQueued) return;
    this.endCheckQueued = true;
    this.enqueue(async () => {
      this.endCheckQueued = false;
      if (await this.hasEnded()) await this.catchUp().then(() => this.finish());
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private onLive(events: RunEvent[]): void {
    // A `done` is kept: past a bogus resume point it is the only sign that the run is over.
    if (this.pending > 0 && !events.some((event) => event.type === 'done')) return this.queueCatchUp();
    this.enqueue(() => this.deliverLive(events));
  }

  private queueCatchUp(): void {
    if (this.catchUpQueued) return;
    this.catchUpQueued = true;
    this.enqueue(async () => {
      this.catchUpQueued = false;
      await this.catchUp();
    });
  }

  private enqueue(work: () => Promise<void>): void {
    this.pending++;
    this.chain = this.chain
      .then(() => (this.closed ? undefined : work()))
      .catch((error: unknown) => {
        this.sink.failed?.(error);
        this.finish();
      })
      .finally(() => {
        this.pending--;
      });
  }

  private async deliverLive(events: RunEvent[]): Promise<void> {
    for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
      if (this.closed) return;
      if (event.seq <= this.lastSeq) {
        // Resumed past the run's last event (a bogus id): nothing to send, but the run is over.
        if (event.type === 'done') this.finish();
        continue;
      }
      if (event.seq !== this.lastSeq + 1) {
        await this.catchUp();
        return;
      }
      await this.deliver(event);
    }
  }

  /**
   * Reads everything after the last delivered event from the table; how many events it read. A short
   * page is the end: what is stored later is published after this read began (and was subscribed to).
   */
  private async catchUp(): Promise<number> {
    let read = 0;
    for (;;) {
      if (this.closed) return read;
      const page = await this.store.listAfter(this.runId, this.lastSeq, this.pageSize);
      for (const event of page) await this.deliver(event);
      read += page.length;
      if (page.length < this.pageSize || this.closed) return read;
    }
  }

  private async deliver(event: RunEvent): Promise<void> {
    if (this.closed || event.seq !== this.lastSeq + 1) return;
    this.lastSeq = event.seq;
    await this.sink.send(event);
    if (event.type === 'done') this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.close();
    this.sink.end();
  }
}
