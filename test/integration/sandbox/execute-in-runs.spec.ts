import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkspacePathResolver } from '../../../src/modules/workspace/paths/workspace-path-resolver';
import { ThreadEntity } from '../../../src/modules/threads/thread.entity';
import { offeredTools } from '../../support/runs/model-requests';
import { eventually, storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { type RuntimeContext, startRuntime } from '../../support/runs/runtime-context';
import type { TestUser } from '../../support/test-app';

const SCRIPT = '/home/gem/skills/deep-research/scripts/source_list.py';
const NOTES = [
  '{"url": "https://www.example.com/a/", "title": "A & B"}',
  '{"url": "https://example.com/a#again", "title": "the same page"}',
  '{"url": "https://b.org/p", "title": "<B>"}',
].join('\\n');

describe('execute in a run: a builtin skill’s script, end to end', () => {
  let runtime: RuntimeContext;
  let user: TestUser;

  beforeAll(async () => {
    runtime = await startRuntime();
    user = await runtime.ctx.newUser();
    const created = await runtime.ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({
        name: 'Researcher',
        slug: 'researcher',
        config: {
          tools: ['execute'],
          skills: ['deep-research'],
          preload_skills: ['deep-research'],
          // `auto` asks before every command (see the approval specs); these runs execute at once.
          approval: { default: 'auto', rules: [{ tool: 'execute', decision: 'allow' }] },
        },
      });
    expect(created.status).toBe(201);
  });
  afterAll(() => runtime.close());

  it('runs the skill’s script from its read-only folder on notes in the workdir, and keeps the notes', async () => {
    const command =
      `mkdir -p notes && printf '${NOTES}\\n' > notes/sources.jsonl && python3 ${SCRIPT} notes/sources.jsonl` +
      ` && (touch /home/gem/skills/deep-research/extra 2>/dev/null && echo writable || echo read-only)`;
    runtime.fake.script(
      { toolCalls: [{ id: 'call_sources', name: 'execute', args: { command } }] },
      { text: 'The source list is ready.' },
    );
    const { ctx } = runtime;
    const threadId = await newThread(ctx, user, 'researcher');
    const run = await startRun(ctx, user, threadId, { input: 'build the source list' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    expect(offeredTools(runtime.fake.requests[0])).toContain('execute');
    const [result] = (await storedEvents(ctx, run.run_id)).filter((e) => e.type === 'tool_result');
    expect(result.payload).toMatchObject({ tool_call_id: 'call_sources', name: 'execute', is_error: false });
    const output = JSON.parse((result.payload as { content: string }).content) as Record<string, unknown>;
    expect(output).toMatchObject({ exit_code: 0, stderr: '', truncated: false, timed_out: false });
    expect(output.stdout).toBe(
      [
        '<ol class="sources">',
        '  <li><a href="https://www.example.com/a/">A &amp; B</a></li>',
        '  <li><a href="https://b.org/p">&lt;B&gt;</a></li>',
        '</ol>',
        'read-only',
        '',
      ].join('\n'),
    );

    const thread = await ctx.dataSource.getRepository(ThreadEntity).findOneByOrFail({ id: threadId });
    const root = ctx.app.get(WorkspacePathResolver).userDataRoot(user);
    const notes = await readFile(join(root, 'workdir', thread.project, 'notes', 'sources.jsonl'), 'utf8');
    expect(notes.trim().split('\n')).toHaveLength(3);
  });

  it('stops a running command when its run is cancelled: nothing it would write later lands', async () => {
    runtime.fake.script(
      {
        toolCalls: [
          { id: 'call_slow', name: 'execute', args: { command: 'sleep 20; echo late > late.txt' } },
        ],
      },
      { text: 'never reached' },
    );
    const { ctx } = runtime;
    const threadId = await newThread(ctx, user, 'researcher');
    const run = await startRun(ctx, user, threadId, { input: 'take your time' });
    await eventually(
      () => storedEvents(ctx, run.run_id),
      (events) => events.some((e) => e.type === 'tool_call'),
    );
    // The command has started by now (the call is recorded before it runs).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const asked = Date.now();
    const cancelled = await ctx.http.post(`/api/runs/${run.run_id}/cancel`).set(auth(user));
    expect(cancelled.status).toBe(200);
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(5_000);

    const thread = await ctx.dataSource.getRepository(ThreadEntity).findOneByOrFail({ id: threadId });
    const root = ctx.app.get(WorkspacePathResolver).userDataRoot(user);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(existsSync(join(root, 'workdir', thread.project, 'late.txt'))).toBe(false);
  }, 30_000);
});
