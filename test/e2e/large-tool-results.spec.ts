import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { TestMcpServer } from '../support/mcp/mcp-test-server';
import { toolAnswer } from '../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import { listeningUrl, readSse } from '../support/runs/sse-client';
import { workdirFile } from '../support/runs/workdir-files';
import { ServiceProcess } from '../support/service-process';
import { TestContext, type TestUser } from '../support/test-app';

jest.setTimeout(90_000);

/** ~200 KB of numbered lines, far above the default inline limit of 20,000 characters. */
const LINES = Array.from(
  { length: 4000 },
  (_, i) => `line ${String(i + 1).padStart(4, '0')}: ${'data '.repeat(9)}`,
);
const REPORT = `${LINES.join('\n')}\n`;
const REPORT_FILE = `fetch_report-${createHash('sha256').update(REPORT).digest('hex').slice(0, 16)}.txt`;

/**
 * A large result of an MCP tool through the real service: the API in this process, the run in a
 * compiled worker process, the tool on a local MCP server, the model a fake OpenAI-compatible server.
 */
describe('a large MCP tool result in a run', () => {
  let fake: FakeOpenAiServer;
  let mcp: TestMcpServer;
  let ctx: TestContext;
  let user: TestUser;
  let slug: string;
  let worker: ServiceProcess;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'fetch_report', handler: () => ({ content: [{ type: 'text', text: REPORT }] }) }],
    });
    const overrides = {
      OPENAI_BASE_URL: fake.baseUrl,
      DEFAULT_MODEL: 'fake-model',
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
    };
    let env: Record<string, string> = {};
    ctx = await TestContext.start((base) => {
      env = { ...base, ...overrides };
      return overrides;
    });
    user = await ctx.newUser();
    const admin = await ctx.newUser({ role: 'admin' });
    await ctx.newMcpServer(admin, { slug: 'reports', url: mcp.url });
    const config = { mcps: ['reports'], tools: ['read_file', 'present_artifacts'] };
    slug = (await ctx.newAgent(user, { config })).slug;
    worker = ServiceProcess.start('worker', { ...env, APP_ROLE: 'worker', LOG_LEVEL: 'info' });
    const deadline = Date.now() + 30_000;
    while (!worker.stdout.includes('agent-runs worker started')) {
      if (Date.now() > deadline || worker.child.exitCode !== null)
        throw new Error(`worker did not start:\n${worker.stderr}\n${worker.stdout.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterAll(async () => {
    worker?.kill();
    await ctx?.close();
    await fake?.close();
    await mcp?.close();
  });

  it('saves the full text, shows the model a preview, streams what the model got and reads the rest back', async () => {
    const threadId = await newThread(ctx, user, slug);
    const path = `/home/gem/user-data/workdir/t-${threadId}/large_tool_results/${REPORT_FILE}`;
    fake.script(
      { toolCalls: [{ id: 'call_report', name: 'fetch_report', args: {} }] },
      {
        toolCalls: [
          { id: 'call_read', name: 'read_file', args: { file_path: path, offset: 2000, limit: 5 } },
        ],
      },
      { toolCalls: [{ id: 'call_present', name: 'present_artifacts', args: { filepaths: [path] } }] },
      { text: 'The report is read.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'fetch the report' });
    const stream = await readSse(await listeningUrl(ctx.app.getHttpServer()), run.stream_url, auth(user), {
      timeoutMs: 60_000,
    });
    expect(await waitForStatus(ctx, run.run_id, isTerminal, 30_000)).toBe('completed');

    // What the model was sent for the MCP call: the preview, not the text.
    const answerIn = (toolCallId: string) => {
      const request = fake.requests.find((r) => toolAnswer(r.body.messages, toolCallId) !== undefined);
      return toolAnswer(request!.body.messages, toolCallId)!.content as string;
    };
    const preview = answerIn('call_report');
    expect(preview.length).toBeLessThan(4_000);
    expect(preview).toContain(`The full text was saved to ${path}.`);
    expect(preview).toContain(`${REPORT.length} characters (${Buffer.byteLength(REPORT)} bytes, 4000 lines)`);
    expect(preview).toContain('read_file');
    expect(preview).toContain(LINES[0]);
    expect(preview).toContain(LINES[3999]);
    expect(preview).not.toContain(LINES[2000]);

    // The full text is in the workspace, and nothing else was saved.
    const onDisk = workdirFile(ctx, user.id, threadId, `large_tool_results/${REPORT_FILE}`);
    expect(await readFile(onDisk, 'utf8')).toBe(REPORT);
    expect(await readdir(dirname(onDisk))).toEqual([REPORT_FILE]);

    // The read_file call returned the asked-for lines verbatim, not another preview.
    const page = answerIn('call_read');
    expect(page).toBe(
      [2001, 2002, 2003, 2004, 2005].map((n) => `${String(n).padStart(6)}\t${LINES[n - 1]}`).join('\n') +
        '\n\n[lines 2001-2005 shown; more follow: read again with offset=2005]',
    );

    // The stream's tool_result events carry exactly what the model received.
    const results = stream.frames.filter((f) => f.event === 'tool_result').map((f) => f.data.payload);
    expect(results.map((r) => [r.tool_call_id, r.is_error])).toEqual([
      ['call_report', false],
      ['call_read', false],
      ['call_present', true],
    ]);
    expect(results[0].content).toBe(preview);
    expect(results[1].content).toBe(page);
    expect(results[2].content).toBe(answerIn('call_present'));

    // A saved result is never an artifact: presenting it is refused, no artifacts event, none listed.
    expect(JSON.parse(answerIn('call_present')).error).toMatchObject({
      code: 'artifacts.path_refused',
      details: { reason: 'internal_file' },
    });
    expect(stream.frames.filter((f) => f.event === 'artifacts')).toEqual([]);
    const artifacts = await ctx.http.get(`/api/threads/${threadId}/artifacts`).set(auth(user));
    expect(artifacts.status).toBe(200);
    expect(artifacts.body.items).toEqual([]);
  });
});
