import type { RunEventBus, RunEventListener } from '../../../src/modules/agent-runtime/events/run-event-bus';
import { RunEventFollower } from '../../../src/modules/agent-runtime/events/run-event-follower';
import type { RunEventStore } from '../../../src/modules/agent-runtime/events/run-event-store';
import type { RunEvent, RunEventType } from '../../../src/modules/agent-runtime/events/run-event';

const RUN = 'run-1';
const event = (seq: number, type: RunEventType = 'message_delta'): RunEvent => ({
  run_id: RUN,
  seq,
  type,
  payload: type === 'done' ? { status: 'completed' } : { delta: `d${seq}` },
  created_at: new Date(0).toISOString(),
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** The run-event table: pages of the size asked; `afterRead` runs once a read has its page (to publish meanwhile). */
class FakeStore {
  readonly rows: RunEvent[] = [];
  reads = 0;
  failNext = false;
  afterRead: ((read: number, page: RunEvent[]) => void) | null = null;

  add(...seqs: (number | RunEvent)[]): RunEvent[] {
    const added = seqs.map((s) => (typeof s === 'number' ? event(s) : s));
    this.rows.push(...added);
    return added;
  }

  listAfter(runId: string, afterSeq: number, limit: number): Promise<RunEvent[]> {
    this.reads++;
    if (this.failNext) return Promise.reject(new Error('database down'));
    const page = this.rows
      .filter((e) => e.run_id === runId && e.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
    this.afterRead?.(this.reads, page);
    return Promise.resolve(page);
  }
}

/** Redis pub/sub for one process: `publish` reaches the subscribed listeners synchronously. */
class FakeBus {
  readonly listeners = new Set<RunEventListener>();
  subscribes = 0;

  subscribe(_runId: string, listener: RunEventListener): Promise<() => void> {
    this.subscribes++;
    this.listeners.add(listener);
    return Promise.resolve(() => this.listeners.delete(listener));
  }

  publish(events: RunEvent[]): void {
    for (const listener of this.listeners) listener.onEvents(events);
  }

  resync(): void {
    for (const listener of this.listeners) listener.onResync();
  }
}

/** A client socket: takes frames at once, or holds each until `drain()` while `slow`. */
class FakeClient {
  readonly sent: number[] = [];
  slow = false;
  private waiting: (() => void)[] = [];

  send(e: RunEvent): Promise<void> {
    this.sent.push(e.seq);
    if (!this.slow) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Frames handed over but not yet taken. */
  get held(): number {
    return this.waiting.length;
  }

  drain(): void {
    this.slow = false;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

function follow(afterSeq: number, options: { ended?: boolean; pageSize?: number } = {}) {
  const store = new FakeStore();
  const bus = new FakeBus();
  const client = new FakeClient();
  const sent = client.sent;
  let ends = 0;
  let ended = options.ended ?? false;
  let endChecks = 0;
  const follower = new RunEventFollower(
    RUN,
    afterSeq,
    store as unknown as RunEventStore,
    bus as unknown as RunEventBus,
    { send: (e) => client.send(e), end: () => ends++ },
    () => {
      endChecks++;
      return Promise.resolve(ended);
    },
    options.pageSize,
  );
  return {
    store,
    bus,
    client,
    sent,
    follower,
    get ends() {
      return ends;
    },
    get endChecks() {
      return endChecks;
    },
    markEnded: () => (ended = true),
  };
}

describe('RunEventFollower', () => {
  it('replays what is stored after the resume point, then delivers live events in order', async () => {
    const f = follow(2);
    f.store.add(1, 2, 3, 4);
    await f.follower.start();
    expect(f.sent).toEqual([3, 4]);
    expect(f.bus.listeners.size).toBe(1);

    f.bus.publish(f.store.add(5, 6));
    await tick();
    f.bus.publish(f.store.add(event(7, 'done')));
    await tick();
    expect(f.sent).toEqual([3, 4, 5, 6, 7]);
    expect(f.ends).toBe(1);
    expect(f.bus.listeners.size).toBe(0);
  });

  it('reads the table in pages until a short page', async () => {
    const f = follow(0, { pageSize: 2 });
    f.store.add(1, 2, 3, 4, 5);
    await f.follower.start();
    expect(f.sent).toEqual([1, 2, 3, 4, 5]);
    expect(f.store.reads).toBe(3); // two full pages, then a short one: nothing after it is stored yet
  });

  it('starts a live run with one read: a replay that sent something needs no end check', async () => {
    const f = follow(0);
    f.store.add(1, 2);
    await f.follower.start();
    expect(f.sent).toEqual([1, 2]);
    expect(f.store.reads).toBe(1);
    expect(f.endChecks).toBe(0);
    f.bus.publish(f.store.add(event(3, 'done')));
    await tick();
    expect(f.sent).toEqual([1, 2, 3]);
    expect(f.ends).toBe(1);
  });

  it('drops live duplicates and sorts a reordered batch', async () => {
    const f = follow(0);
    f.store.add(1, 2);
    await f.follower.start();
    const later = f.store.add(3, 4, 5);
    f.bus.publish([later[2], later[0], later[1]]);
    f.bus.publish([event(2), event(4)]);
    await tick();
    expect(f.sent).toEqual([1, 2, 3, 4, 5]);
  });

  it('fills a gap in live events (a lost publish) from the table', async () => {
    const f = follow(0);
    f.store.add(1);
    await f.follower.start();
    const [, , e4] = f.store.add(2, 3, 4);
    const readsBefore = f.store.reads;
    f.bus.publish([e4]);
    await tick();
    expect(f.sent).toEqual([1, 2, 3, 4]);
    expect(f.store.reads).toBeGreaterThan(readsBefore);
  });

  it('loses nothing published while it replays (it subscribed first)', async () => {
    const f = follow(0);
    f.store.add(1, 2);
    // Right after the replay's (only) read, events 3 and 4 are stored and published: only the live
    // subscription, taken before the replay, can bring them.
    f.store.afterRead = (read) => {
      if (read === 1) f.bus.publish(f.store.add(3, 4));
    };
    await f.follower.start();
    await tick();
    expect(f.bus.subscribes).toBe(1);
    expect(f.sent).toEqual([1, 2, 3, 4]);
    // The publish came while the replay was busy: it triggered one catch-up (one short page).
    expect(f.store.reads).toBe(2);
  });

  it('catches up from the table after a Redis resync', async () => {
    const f = follow(0);
    await f.follower.start();
    f.store.add(1, 2, 3); // published while the subscriber was disconnected: never received
    f.bus.resync();
    await tick();
    expect(f.sent).toEqual([1, 2, 3]);
  });

  it('closes at once, sending nothing, when resuming after the done of an ended run', async () => {
    const f = follow(3, { ended: true });
    f.store.add(1, 2, event(3, 'done'));
    await f.follower.start();
    expect(f.sent).toEqual([]);
    expect(f.ends).toBe(1);
    expect(f.bus.listeners.size).toBe(0);
  });

  it('ends, sending nothing, when resumed past the end of a live run and the run then ends', async () => {
    const f = follow(99);
    f.store.add(1, 2);
    await f.follower.start();
    f.bus.publish(f.store.add(3));
    f.bus.publish(f.store.add(event(4, 'done')));
    await tick();
    expect(f.sent).toEqual([]);
    expect(f.ends).toBe(1);
    expect(f.bus.listeners.size).toBe(0);
  });

  it('replays an ended run to its done and ends once', async () => {
    const f = follow(0, { ended: true });
    f.store.add(1, 2, event(3, 'done'));
    await f.follower.start();
    expect(f.sent).toEqual([1, 2, 3]);
    expect(f.ends).toBe(1);
  });

  it('stops delivering after close, without ending the stream', async () => {
    const f = follow(0);
    await f.follower.start();
    f.follower.close();
    f.bus.publish(f.store.add(1));
    f.bus.resync();
    await tick();
    expect(f.sent).toEqual([]);
    expect(f.ends).toBe(0);
    expect(f.bus.listeners.size).toBe(0);
  });

  it('ends the stream when the table cannot be read (the client reconnects)', async () => {
    const f = follow(0);
    f.store.add(1);
    await f.follower.start();
    f.store.failNext = true;
    f.bus.publish([event(3)]);
    await tick();
    expect(f.sent).toEqual([1]);
    expect(f.ends).toBe(1);
    expect(f.bus.listeners.size).toBe(0);
  });

  it('unsubscribes when closed while its subscription was still being taken', async () => {
    const f = follow(0);
    let subscribed: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (subscribed = resolve));
    const subscribe = f.bus.subscribe.bind(f.bus);
    f.bus.subscribe = async (runId, listener) => {
      const unsubscribe = await subscribe(runId, listener);
      await gate;
      return unsubscribe;
    };
    const starting = f.follower.start();
    await tick();
    expect(f.bus.listeners.size).toBe(1);
    f.follower.close();
    subscribed();
    await starting;
    expect(f.bus.listeners.size).toBe(0);
    expect(f.store.reads).toBe(0);
  });

  it('waits for a slow client between frames and keeps no live events meanwhile', async () => {
    const f = follow(0, { pageSize: 10 });
    f.store.add(...Array.from({ length: 30 }, (_, i) => i + 1));
    f.client.slow = true;
    const starting = f.follower.start();
    await tick();
    // One frame handed over, and the replay waits for it: no further frame, no further page read.
    expect(f.sent).toEqual([1]);
    expect(f.store.reads).toBe(1);
    for (let seq = 31; seq <= 130; seq++) f.bus.publish(f.store.add(seq));
    f.follower.checkEnded();
    f.follower.checkEnded();
    await tick();
    expect(f.sent).toEqual([1]);
    expect(f.client.held).toBe(1);
    // The 100 live events were not queued one by one: they come back from the table in one catch-up.
    expect((f.follower as unknown as { pending: number }).pending).toBeLessThanOrEqual(3);

    f.client.drain();
    await starting;
    await tick();
    expect(f.sent).toEqual(Array.from({ length: 130 }, (_, i) => i + 1));
  });
});
