import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_RUNS_QUEUE } from '../../src/modules/agent-runtime/queue/agent-runs.queue';
import { freePort } from '../support/free-port';
import { auth, newThread } from '../support/runs/run-helpers';
import { ServiceProcess } from '../support/service-process';
import { TestContext, type TestUser } from '../support/test-app';
import { OtlpReceiver } from '../support/tracing/otlp-receiver';

jest.setTimeout(60_000);

/**
 * Preloaded into the service (`--require`): on SIGUSR2 it prints the OpenTelemetry packages the
 * process has loaded, read from `require.cache`.
 */
const PROBE = `
process.on('SIGUSR2', () => {
  const names = new Set();
  for (const path of Object.keys(require.cache)) {
    const match = /@opentelemetry[\\\\/]([^\\\\/]+)/.exec(path);
    if (match) names.add(match[1]);
  }
  process.stdout.write(JSON.stringify({ otel_probe: [...names].sort() }) + '\\n');
});
`;

/**
 * Tracing off (no OTLP endpoint, the default): the compiled service never loads the SDK, so spans are
 * the API's no-ops, and the jobs it enqueues carry no `traceparent`. The same service with an endpoint
 * is the counter-check.
 */
describe('tracing off costs nothing: no SDK loaded, no trace context on jobs', () => {
  let ctx: TestContext;
  let user: TestUser;
  let env: Record<string, string> = {};
  let receiver: OtlpReceiver;
  let service: ServiceProcess | undefined;
  const probePath = join(mkdtempSync(join(tmpdir(), 'yuxi-otel-probe-')), 'probe.cjs');

  beforeAll(async () => {
    writeFileSync(probePath, PROBE);
    receiver = await OtlpReceiver.start();
    ctx = await TestContext.start((base) => {
      env = base;
      return {};
    });
    user = await ctx.newUser();
  });

  afterEach(() => service?.kill());

  afterAll(async () => {
    await ctx?.close();
    await receiver?.close();
  });

  /** Starts an API process (it enqueues, consumes nothing), creates a run on it; its job's data and the loaded OpenTelemetry packages. */
  async function runOnService(extraEnv: Record<string, string>) {
    const port = await freePort();
    service = ServiceProcess.start('main', {
      ...env,
      APP_ROLE: 'api',
      PORT: String(port),
      NODE_OPTIONS: `--require ${probePath}`,
      ...extraEnv,
    });
    await service.waitHealthy(port, 30_000);
    const threadId = await newThread(ctx, user);
    const res = await fetch(`http://127.0.0.1:${port}/api/threads/${threadId}/runs`, {
      method: 'POST',
      headers: { ...auth(user), 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'hello' }),
    });
    expect(res.status).toBe(202);
    const runId = ((await res.json()) as { run_id: string }).run_id;
    const job = await ctx.app.get<Queue>(getQueueToken(AGENT_RUNS_QUEUE)).getJob(runId);
    const [row] = await ctx.dataSource.query<{ origin_traceparent: string | null }[]>(
      `SELECT origin_traceparent FROM runs WHERE id = $1`,
      [runId],
    );

    const running = service;
    running.child.kill('SIGUSR2');
    const deadline = Date.now() + 5_000;
    while (!running.stdout.includes('otel_probe') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const probeLine = running.stdout.split('\n').find((line) => line.includes('otel_probe'));
    const loaded = (JSON.parse(probeLine!) as { otel_probe: string[] }).otel_probe;
    return {
      jobData: job?.data as Record<string, unknown>,
      loaded,
      storedTraceparent: row.origin_traceparent,
    };
  }

  it('loads only the OpenTelemetry API, and enqueues the job without a traceparent', async () => {
    const { jobData, loaded, storedTraceparent } = await runOnService({});
    expect(loaded).toEqual(['api']);
    expect(jobData).toEqual({ runId: expect.any(String), requestId: expect.any(String) });
    expect(storedTraceparent).toBeNull();
  });

  it('with an OTLP endpoint loads the SDK and its instrumentations, and the job carries a traceparent', async () => {
    const { jobData, loaded, storedTraceparent } = await runOnService({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(loaded).toEqual(
      expect.arrayContaining(['api', 'sdk-node', 'instrumentation-http', 'instrumentation-undici']),
    );
    expect(jobData.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(storedTraceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // The job continues the run's trace from the enqueue span, a child of what the row stored.
    expect(String(jobData.traceparent).slice(3, 35)).toBe(storedTraceparent!.slice(3, 35));
    expect(jobData.traceparent).not.toBe(storedTraceparent);
  });
});
