import { request } from 'node:http';
import { RunEventBus } from '../../../src/modules/agent-runtime/events/run-event-bus';
import { RunEventStreams } from '../../../src/modules/agent-runtime/events/run-event-streams';
import { RedisClient } from '../../../src/redis/redis-client';
import { RunsRepository } from '../../../src/modules/agent-runtime/runs/runs.repository';
import { RunsService } from '../../../src/modules/agent-runtime/runs/runs.service';
import { CallHold } from '../../support/runs/call-hold';
import { eventually } from '../../support/runs/run-event-rows';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { closedOnServer, ServerConnections } from '../../support/runs/server-connections';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { TestContext, type TestUser } from '../../support/test-app';

const CYCLES = 200;
const HEARTBEAT_SECONDS = 1;

/** Timers and intervals alive in this process (the app runs in it): a heartbeat is one of them. */
const activeTimeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/**
 * Clients that connect and drop, at every await of the stream's start. The run stays `queued` (no
 * worker in an `api` process), so nothing but the client going away can end its streams.
 */
describe('run event streams leave nothing behind when the client drops', () => {
  let ctx: TestContext;
  let user: TestUser;
  let base: string;
  let connections: ServerConnections;
  let runId: string;
  let url: string;

  beforeAll(async () => {
    ctx = await TestContext.start({ SSE_HEARTBEAT_SECONDS: `${HEARTBEAT_SECONDS}` });
    user = await ctx.newUser();
    base = await listeningUrl(ctx.app.getHttpServer());
    connections = new ServerConnections(ctx.app.getHttpServer());
  });

  // A run of its own per test, so what one test leaks cannot show up in another.
  beforeEach(async () => {
    const run = await startRun(ctx, user, await newThread(ctx, user), { input: 'never picked up' });
    runId = run.run_id;
    url = run.stream_url;
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    connections.stop();
    await ctx.close();
  });

  /** Sends the request and returns once the server holds its connection; `drop()` cuts it. */
  async function connect(): Promise<{ drop: () => Promise<void> }> {
    const accepted = connections.next();
    const req = request(`${base}${url}`, { headers: auth(user), agent: false });
    req.on('error', () => undefined);
    req.end();
    const exchange = await accepted;
    return {
      drop: async () => {
        req.destroy();
        await closedOnServer(exchange);
      },
    };
  }

  /** After the cycles: no bus listener, no heartbeat, and no heartbeat query for the run. */
  async function expectNothingLeft(baseline: { listeners: number; timeouts: number }): Promise<void> {
    const bus = ctx.app.get(RunEventBus);
    await eventually(
      () => Promise.resolve(bus.listenerCount()),
      (count) => count === baseline.listeners,
    ).catch(() => undefined);
    expect(bus.listenerCount()).toBe(baseline.listeners);
    expect(ctx.app.get(RunEventStreams).openCount).toBe(0);
    expect(await ctx.app.get(RedisClient).zcard(`sse-streams:${user.id}`)).toBe(0);
    // A leaked stream is one interval each: 200 of them would be far above this slack for the app's own timers.
    expect(activeTimeouts()).toBeLessThanOrEqual(baseline.timeouts + 5);

    const lookups = jest.spyOn(ctx.app.get(RunsRepository), 'findById');
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_SECONDS * 2_500));
    expect(lookups.mock.calls.filter(([id]) => id === runId)).toHaveLength(0);
  }

  const baseline = () => ({
    listeners: ctx.app.get(RunEventBus).listenerCount(),
    timeouts: activeTimeouts(),
  });

  it(`${CYCLES} clients that drop while their ownership check is still running`, async () => {
    const before = baseline();
    const service = ctx.app.get(RunsService);
    const assertOwned = service.assertOwned.bind(service);
    const spy = jest.spyOn(service, 'assertOwned');
    for (let i = 0; i < CYCLES; i++) {
      const hold = new CallHold();
      spy.mockImplementationOnce(async (...args) => {
        await hold.wait();
        return assertOwned(...args);
      });
      const client = await connect();
      await hold.entered;
      await client.drop();
      hold.release();
    }
    expect(spy).toHaveBeenCalledTimes(CYCLES);
    await expectNothingLeft(before);
  });

  it(`${CYCLES} clients that drop while their stream subscribes to the run's live events`, async () => {
    const before = baseline();
    const bus = ctx.app.get(RunEventBus);
    const subscribe = bus.subscribe.bind(bus);
    const spy = jest.spyOn(bus, 'subscribe');
    for (let i = 0; i < CYCLES; i++) {
      const hold = new CallHold();
      spy.mockImplementationOnce(async (...args) => {
        const unsubscribe = await subscribe(...args);
        await hold.wait();
        return unsubscribe;
      });
      const client = await connect();
      await hold.entered;
      await client.drop();
      hold.release();
    }
    expect(spy).toHaveBeenCalledTimes(CYCLES);
    await expectNothingLeft(before);
  });

  it(`${CYCLES} clients that drop after their stream started`, async () => {
    const before = baseline();
    for (let i = 0; i < CYCLES; i++) {
      const accepted = connections.next();
      const stream = await readSse(base, url, auth(user), { until: (frame) => frame.id === 1 });
      expect(stream.frames.map((frame) => frame.event)).toEqual(['status']);
      await closedOnServer(await accepted);
    }
    await expectNothingLeft(before);
  });
});
