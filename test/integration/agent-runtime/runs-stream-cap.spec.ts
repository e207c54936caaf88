import { RedisClient } from '../../../src/redis/redis-client';
import { RunEventStore } from '../../../src/modules/agent-runtime/events/run-event-store';
import { eventually } from '../../support/runs/run-event-rows';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { TestContext, type TestUser } from '../../support/test-app';

const CAP = 2;

/** A stream held open until `close()`; `opened` resolves with its first frame. */
interface OpenStream {
  opened: Promise<void>;
  result: ReturnType<typeof readSse>;
  close(): void;
}

function openStream(base: string, url: string, user: TestUser): OpenStream {
  const abort = new AbortController();
  let markOpened: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));
  const result = readSse(base, url, auth(user), {
    signal: abort.signal,
    timeoutMs: 60_000,
    until: () => {
      markOpened();
      return false;
    },
  });
  return { opened, result, close: () => abort.abort() };
}

/**
 * `SSE_MAX_STREAMS_PER_USER` over two API processes sharing PostgreSQL and Redis (`a` and `b`, as two
 * replicas behind a load balancer would): the cap holds across both.
 */
describe('open run event streams per user are capped (SSE_MAX_STREAMS_PER_USER)', () => {
  let a: TestContext;
  let b: TestContext;
  let baseA: string;
  let baseB: string;
  let user: TestUser;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    a = await TestContext.start({ SSE_MAX_STREAMS_PER_USER: `${CAP}`, SSE_HEARTBEAT_SECONDS: '1' });
    b = await TestContext.start((env) => ({
      ...env,
      DATABASE_URL: a.config.database.url.reveal(),
      REDIS_PREFIX: a.config.redis.prefix,
      JWT_SECRET: a.config.auth.jwtSecret.reveal(),
      SSE_MAX_STREAMS_PER_USER: `${CAP}`,
      SSE_HEARTBEAT_SECONDS: '1',
    }));
    baseA = await listeningUrl(a.app.getHttpServer());
    baseB = await listeningUrl(b.app.getHttpServer());
    user = await a.newUser();
  });

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    jest.restoreAllMocks();
    await eventually(
      () => slotsOf(user),
      (n) => n === 0,
    );
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Slots the user holds in Redis, over every process. */
  const slotsOf = (who: TestUser) => a.app.get(RedisClient).zcard(`sse-streams:${who.id}`);

  /** A run that stays `queued` (no worker here): its streams stay open until the client goes. */
  async function liveRun(owner = user): Promise<string> {
    return (await startRun(a, owner, await newThread(a, owner), { input: 'stay' })).stream_url;
  }

  async function hold(base: string, url: string, who = user): Promise<OpenStream> {
    const stream = openStream(base, url, who);
    streams.push(stream);
    await stream.opened;
    return stream;
  }

  it('refuses the stream over the cap with 429 runs.too_many_streams and Retry-After, on either process', async () => {
    const url = await liveRun();
    await hold(baseA, url);
    await hold(baseB, url);
    expect(await slotsOf(user)).toBe(CAP);

    for (const base of [baseA, baseB]) {
      const refused = await fetch(`${base}${url}`, { headers: auth(user) });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('content-type')).toMatch(/application\/json/);
      expect(await refused.json()).toMatchObject({
        status_code: 429,
        code: 'runs.too_many_streams',
        details: { limit: CAP },
        request_id: expect.any(String),
      });
    }
    expect(await slotsOf(user)).toBe(CAP);

    // Per user: someone else still streams their own run.
    const other = await a.newUser();
    await hold(baseB, await liveRun(other), other);
    expect(await slotsOf(other)).toBe(1);
    // Ownership comes first: a stranger's run is a 404 whatever the caller's count.
    const foreign = await fetch(`${baseA}${url}`, { headers: auth(other) });
    expect(foreign.status).toBe(404);
    expect(await slotsOf(other)).toBe(1);
  });

  it('gives the slot back when the client goes away', async () => {
    const url = await liveRun();
    const first = await hold(baseA, url);
    await hold(baseA, url);
    first.close();
    await eventually(
      () => slotsOf(user),
      (n) => n === CAP - 1,
    );
    await hold(baseB, url);
    expect(await slotsOf(user)).toBe(CAP);
  });

  it('gives the slot back when the run’s stream ends with done, and when the stream fails', async () => {
    const run = await startRun(a, user, await newThread(a, user), { input: 'over soon' });
    await a.app.get(RunEventStore).append({
      runId: run.run_id,
      events: [{ type: 'done', payload: { status: 'completed' } }],
      fence: 'unfenced',
    });
    for (let i = 0; i < CAP * 3; i++) {
      const replay = await readSse(i % 2 === 0 ? baseA : baseB, run.stream_url, auth(user));
      expect(replay).toMatchObject({ status: 200, ended: true });
      expect(replay.frames.map((frame) => frame.event)).toEqual(['status', 'done']);
    }
    expect(await slotsOf(user)).toBe(0);

    // Reading the table fails: the stream ends (the client reconnects) and its slot is free again.
    jest.spyOn(a.app.get(RunEventStore), 'listAfter').mockRejectedValue(new Error('table unreadable'));
    for (let i = 0; i < CAP * 2; i++) {
      const failed = await readSse(baseA, run.stream_url, auth(user));
      expect(failed).toMatchObject({ status: 200, ended: true, frames: [] });
    }
    expect(await slotsOf(user)).toBe(0);
  });

  it('does not count the slots of a process that died without giving them back', async () => {
    const redis = a.app.get(RedisClient);
    // Two slots whose refresh stopped a minute ago, as a crashed process leaves them.
    const lapsed = Date.now() - 60_000;
    await redis.zadd(`sse-streams:${user.id}`, lapsed, 'crashed-1', lapsed, 'crashed-2');
    const url = await liveRun();
    await hold(baseA, url);
    await hold(baseB, url);
    expect(await slotsOf(user)).toBe(CAP);
  });

  it('gives back the slots of its open streams when a process shuts down', async () => {
    const c = await TestContext.start((env) => ({
      ...env,
      DATABASE_URL: a.config.database.url.reveal(),
      REDIS_PREFIX: a.config.redis.prefix,
      JWT_SECRET: a.config.auth.jwtSecret.reveal(),
      SSE_MAX_STREAMS_PER_USER: `${CAP}`,
    }));
    const url = await liveRun();
    const stream = await hold(await listeningUrl(c.app.getHttpServer()), url);
    expect(await slotsOf(user)).toBe(1);
    await c.close();
    expect(await slotsOf(user)).toBe(0);
    expect((await stream.result).ended).toBe(true);
  });
});
