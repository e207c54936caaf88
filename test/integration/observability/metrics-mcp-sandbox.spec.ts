import { mkdir } from 'node:fs/promises';
import { freePort } from '../../support/free-port';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { Scrape } from '../../support/metrics/prometheus-text';
import { auth } from '../../support/runs/run-helpers';
import { execute } from '../../support/sandbox/execute-call';
import { workdirOf } from '../../support/sandbox/sandbox-probes';
import { TestContext, type TestUser } from '../../support/test-app';

jest.setTimeout(60_000);

const DISCOVERY = 'yuxi_mcp_discovery_duration_seconds_count';

describe('metrics of MCP discovery and sandbox commands', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let metricsPort: number;
  const servers: TestMcpServer[] = [];

  beforeAll(async () => {
    metricsPort = await freePort();
    ctx = await TestContext.start({
      METRICS_PORT: String(metricsPort),
      METRICS_MAX_AGENT_LABELS: '2',
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
    });
    admin = await ctx.newUser({ role: 'admin' });
  });

  afterAll(async () => {
    await ctx.close();
    await Promise.all(servers.map((server) => server.close()));
  });

  async function scrape(): Promise<Scrape> {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    return Scrape.of(await res.text());
  }

  async function mcpServer(): Promise<TestMcpServer> {
    const server = await TestMcpServer.start({ transport: 'streamable_http', tools: [{ name: 'echo_x' }] });
    servers.push(server);
    return server;
  }

  it('times every tool list read from a server (not the cached ones), by slug capped at the limit', async () => {
    const before = await scrape();
    const alpha = await mcpServer();
    await ctx.newMcpServer(admin, { slug: 'alpha', url: alpha.url });
    const tested = await ctx.http.post('/api/system/mcp-servers/alpha/test').set(auth(admin));
    expect(tested.body).toMatchObject({ ok: true });
    // The test stored the list: reading it now is a cache hit, not a discovery.
    expect((await ctx.http.get('/api/system/mcp-servers/alpha/tools').set(auth(admin))).status).toBe(200);

    const gone = await mcpServer();
    await ctx.newMcpServer(admin, { slug: 'gone', url: gone.url });
    await gone.close();
    const failed = await ctx.http.post('/api/system/mcp-servers/gone/test').set(auth(admin));
    expect(failed.body).toMatchObject({ ok: false });

    // A third server is past the cap of 2: its reads are counted under (other).
    const beta = await mcpServer();
    await ctx.newMcpServer(admin, { slug: 'beta', url: beta.url });
    for (let i = 0; i < 2; i++)
      expect((await ctx.http.get('/api/system/mcp-servers/beta/tools').set(auth(admin))).status).toBe(200);

    const after = await scrape();
    expect({
      alphaOk: after.delta(before, DISCOVERY, { server: 'alpha', outcome: 'ok' }),
      goneError: after.delta(before, DISCOVERY, { server: 'gone', outcome: 'error' }),
      otherOk: after.delta(before, DISCOVERY, { server: '(other)', outcome: 'ok' }),
      all: after.delta(before, DISCOVERY),
    }).toEqual({ alphaOk: 1, goneError: 1, otherOk: 1, all: 3 });
    expect(after.labelValues(DISCOVERY, 'server')).not.toContain('beta');
  });

  it('counts sandbox commands by how they ended', async () => {
    const user = await ctx.newUser();
    await mkdir(workdirOf(ctx, user), { recursive: true });
    const before = await scrape();
    expect((await execute(ctx, user, { command: 'true' })).body.exit_code).toBe(0);
    expect((await execute(ctx, user, { command: 'exit 3' })).body.exit_code).toBe(3);
    expect((await execute(ctx, user, { command: 'sleep 20', timeout_s: 1 })).body.timed_out).toBe(true);
    const after = await scrape();
    const delta = (name: string, outcome: string) => after.delta(before, name, { outcome });
    expect({
      ok: delta('yuxi_sandbox_executions_total', 'ok'),
      nonzero: delta('yuxi_sandbox_executions_total', 'nonzero_exit'),
      timeout: delta('yuxi_sandbox_executions_total', 'timeout'),
      all: after.delta(before, 'yuxi_sandbox_executions_total'),
      timedTimeout: delta('yuxi_sandbox_execution_duration_seconds_count', 'timeout'),
    }).toEqual({ ok: 1, nonzero: 1, timeout: 1, all: 3, timedTimeout: 1 });
    // The command that timed out ran about its second.
    expect(
      after.delta(before, 'yuxi_sandbox_execution_duration_seconds_sum', { outcome: 'timeout' }),
    ).toBeGreaterThan(0.9);
  });
});
