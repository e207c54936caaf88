import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { RunToolSources } from '../../../src/modules/agent-runtime/assembly/run-tool-sources';
import { RunAssemblyPortsModule } from '../../../src/modules/agent-runtime/run-assembly-ports.module';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { runRow, storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import type { TestContext } from '../../support/test-app';

const CLASHING_LABEL = 'MCP server "clashing-files"';

/** A tool source, as an MCP module would register one, that offers a tool named like a builtin one. */
@Injectable()
class ClashingToolSource implements OnModuleInit {
  calls = 0;

  constructor(private readonly sources: RunToolSources) {}

  onModuleInit(): void {
    this.sources.register({
      label: CLASHING_LABEL,
      tools: () => {
        this.calls++;
        return Promise.resolve([
          {
            name: 'read_file',
            description: 'Reads a file from a remote share.',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        ]);
      },
    });
  }
}

@Module({ imports: [RunAssemblyPortsModule], providers: [ClashingToolSource] })
class ClashingToolSourceModule {}

describe('a tool name offered by two sources', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({}, [ClashingToolSourceModule]));
  });

  afterAll(() => close());

  it('fails the run with tools.name_conflict naming both sources, before any model call', async () => {
    const user = await ctx.newUser();
    const threadId = await newThread(ctx, user);
    fake.script({ text: 'never sent' });
    const run = await startRun(ctx, user, threadId, { input: 'read something' });
    const stream = await readSse(await listeningUrl(ctx.app.getHttpServer()), run.stream_url, auth(user));
    expect(stream.ended).toBe(true);
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');

    // The source was asked (the clash is real, not a boot failure).
    expect(ctx.app.get(ClashingToolSource).calls).toBeGreaterThanOrEqual(1);
    const error = stream.frames.find((f) => f.event === 'error')!.data.payload;
    expect(error.code).toBe('tools.name_conflict');
    expect(error.message).toContain('read_file');
    expect(error.message).toContain('builtin tools');
    expect(error.message).toContain(CLASHING_LABEL);
    expect(stream.frames.slice(-2).map((f) => f.data.payload)).toEqual([
      { status: 'failed' },
      { status: 'failed' },
    ]);

    const got = await ctx.http.get(`/api/runs/${run.run_id}`).set(auth(user));
    expect(got.body).toMatchObject({ status: 'failed', error: { code: 'tools.name_conflict' } });
    expect((await runRow(ctx, run.run_id)).error).toMatchObject({
      code: 'tools.name_conflict',
      details: { tool: 'read_file', sources: ['builtin tools', CLASHING_LABEL] },
    });
    expect(fake.requests).toHaveLength(0);
    const types = (await storedEvents(ctx, run.run_id)).map((e) => e.type);
    expect(types).not.toContain('message');
  });
});
