import { existsSync, readFileSync } from 'node:fs';
import { decide, waitingPoint, type Policy } from '../../support/approval/approval-runs';
import type { RecordedRequest } from '../../support/fake-openai/fake-openai-script';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { toolAnswer } from '../../support/runs/model-requests';
import { eventually } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { workdirFile } from '../../support/runs/workdir-files';
import {
  childRuns,
  eventsOf,
  requestsFor,
  SubagentScripts,
  type RunRow,
} from '../../support/subagents/subagent-runtime';
import { call, gate, parentTurns, toolMessages } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

const ASK_WRITES: Policy = { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] };

/** The parent's result of `toolCallId`, from the first request that carries it. */
const resultOf = (fake: FakeOpenAiServer, input: string, toolCallId: string) => {
  for (const { body } of requestsFor(fake, input)) {
    const answer = toolAnswer(body.messages, toolCallId);
    if (answer !== undefined) return JSON.parse(String(answer.content)) as Record<string, unknown>;
  }
  throw new Error(`no result for ${toolCallId}`);
};

/** A subagent run that asks before writing: the parent's child parks for the owner's decision. */
describe('tool approval in subagent runs', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let other: TestUser;
  let scripts: SubagentScripts;
  let childSlug: string;
  let parentSlug: string;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    scripts = new SubagentScripts(fake);
    user = await ctx.newUser();
    other = await ctx.newUser();
    const child = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({
        name: 'Careful writer',
        is_subagent: true,
        config: { tools: ['write_file'], approval: ASK_WRITES },
      });
    expect(child.status).toBe(201);
    childSlug = (child.body as { slug: string }).slug;
    ({ slug: parentSlug } = await ctx.newAgent(user, { config: { subagents: [childSlug] } }));
  });

  afterAll(() => close());

  const startCall = (id: string, description: string) =>
    call(id, 'subagent_start', { description, subagent_slug: childSlug });

  /** The child's script: one write of `file` that asks, then its last word `output`. */
  const writingChild = (file: string, output: string) => (body: RecordedRequest['body']) =>
    toolMessages(body).length > 0
      ? { text: output }
      : { toolCalls: [call('call_w', 'write_file', { file_path: file, content: 'hello' })] };

  /** The parent's only child once it parks for the owner's decision. */
  async function waitingChild(parentRunId: string): Promise<RunRow> {
    const [child] = await eventually(
      () => childRuns(ctx, parentRunId),
      (kids) => kids.length === 1 && kids[0].status === 'waiting',
    );
    return child;
  }

  /** The parent parked for `childId` (status waiting, the child among the awaited runs). */
  function parkedFor(parentRunId: string, childId: string) {
    return eventually(
      async () => {
        const [row] = await ctx.dataSource.query<{ status: string; awaited: string[] | null }[]>(
          `SELECT status, awaited_run_ids AS awaited FROM runs WHERE id = $1`,
          [parentRunId],
        );
        return row;
      },
      (row) => row.status === 'waiting' && (row.awaited ?? []).includes(childId),
    );
  }

  async function leaseOf(runId: string): Promise<string | null> {
    const [row] = await ctx.dataSource.query<{ lease_token: string | null }[]>(
      `SELECT lease_token FROM runs WHERE id = $1`,
      [runId],
    );
    return row.lease_token;
  }

  /** The parent's `subagent` events about `childId`, as (seq, status). */
  async function subagentEventsAbout(parentRunId: string, childId: string) {
    return (await eventsOf(ctx, parentRunId))
      .filter((event) => event.type === 'subagent' && event.payload.run_id === childId)
      .map((event) => ({ seq: event.seq, payload: event.payload }));
  }

  it('parks the child for approval, tells the parent once, and the approved child wakes the parent', async () => {
    scripts
      .on('write the note', writingChild('note.md', 'note written'))
      .on(
        'delegate the note',
        parentTurns([
          () => ({ toolCalls: [startCall('start', 'write the note')] }),
          (r) => ({ toolCalls: [call('wait', 'subagent_await', { run_id: r.get('start')!.run_id })] }),
          () => ({ text: 'parent done' }),
        ]),
      );
    const threadId = await newThread(ctx, user, parentSlug);
    const parent = await startRun(ctx, user, threadId, { input: 'delegate the note' });

    const child = await waitingChild(parent.run_id);
    await parkedFor(parent.run_id, child.id);
    expect(await leaseOf(child.id)).toBeNull();
    expect(requestsFor(fake, 'delegate the note')).toHaveLength(2);
    const file = workdirFile(ctx, user.id, threadId, 'note.md');
    expect(existsSync(file)).toBe(false);

    const shown = { run_id: child.id, thread_id: child.thread_id, subagent_slug: childSlug };
    const told = await subagentEventsAbout(parent.run_id, child.id);
    expect(told.map((event) => event.payload)).toEqual([
      { ...shown, status: 'queued' },
      { ...shown, status: 'waiting' },
    ]);
    expect(told[1].seq).toBeGreaterThan(told[0].seq);

    const point = await waitingPoint(ctx, user, child.id);
    expect(point.status).toBe(200);
    expect(point.body).toMatchObject({
      run_id: child.id,
      kind: 'approval',
      tool_call_id: 'call_w',
      status: 'open',
    });
    expect(point.body.approvals).toEqual([
      expect.objectContaining({
        tool_call_id: 'call_w',
        name: 'write_file',
        args: { file_path: 'note.md', content: 'hello' },
      }),
    ]);
    // The parent itself waits for its child, not for the owner.
    expect((await waitingPoint(ctx, user, parent.run_id)).status).toBe(404);

    const answered = await decide(ctx, user, child.id, { decisions: { call_w: { decision: 'approve' } } });
    expect([answered.status, answered.body.status]).toEqual([200, 'answered']);
    expect(await waitForStatus(ctx, child.id, isTerminal)).toBe('completed');
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    expect(readFileSync(file, 'utf8')).toBe('hello');
    expect(resultOf(fake, 'delegate the note', 'wait')).toEqual({
      run_id: child.id,
      status: 'completed',
      output: 'note written',
    });
    expect((await subagentEventsAbout(parent.run_id, child.id)).map((event) => event.payload)).toEqual([
      { ...shown, status: 'queued' },
      { ...shown, status: 'waiting' },
      { ...shown, status: 'completed' },
    ]);
    const childStatuses = (await eventsOf(ctx, child.id))
      .filter((event) => event.type === 'status')
      .map((event) => event.payload.status);
    expect(childStatuses).toEqual(['queued', 'running', 'waiting', 'queued', 'running', 'completed']);
  });

  it('another user can neither read nor answer the child’s point', async () => {
    scripts
      .on('write privately', writingChild('private.md', 'unused'))
      .on(
        'delegate privately',
        parentTurns([
          () => ({ toolCalls: [startCall('start', 'write privately')] }),
          (r) => ({ toolCalls: [call('wait', 'subagent_await', { run_id: r.get('start')!.run_id })] }),
          () => ({ text: 'unused' }),
        ]),
      );
    const threadId = await newThread(ctx, user, parentSlug);
    const parent = await startRun(ctx, user, threadId, { input: 'delegate privately' });
    const child = await waitingChild(parent.run_id);

    const read = await waitingPoint(ctx, other, child.id);
    expect([read.status, read.body.code]).toEqual([404, 'runs.not_found']);
    const answer = await decide(ctx, other, child.id, { decisions: { call_w: { decision: 'approve' } } });
    expect([answer.status, answer.body.code]).toEqual([404, 'runs.not_found']);
    expect((await waitingPoint(ctx, user, child.id)).body.status).toBe('open');
    expect((await childRuns(ctx, parent.run_id))[0].status).toBe('waiting');
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'private.md'))).toBe(false);
    await ctx.http.post(`/api/runs/${parent.run_id}/cancel`).set(auth(user));
    expect(await waitForStatus(ctx, child.id, isTerminal)).toBe('cancelled');
  });

  it('the parent’s await times out while the child waits; the child can still be approved', async () => {
    // The parent awaits only once its child waits, so the timed-out result shows `waiting`.
    const childWaits = gate();
    const turns = parentTurns([
      () => ({ toolCalls: [startCall('start', 'write slowly')] }),
      (r) => ({
        toolCalls: [call('short', 'subagent_await', { run_id: r.get('start')!.run_id, timeout_s: 1 })],
      }),
      (r) => ({ toolCalls: [call('long', 'subagent_await', { run_id: r.get('start')!.run_id })] }),
      () => ({ text: 'patient parent done' }),
    ]);
    scripts
      .on('write slowly', writingChild('slow.md', 'slow note written'))
      .on('delegate impatiently', (body) =>
        toolMessages(body).length === 1 ? { reply: turns(body), after: childWaits.opened } : turns(body),
      );
    const threadId = await newThread(ctx, user, parentSlug);
    const parent = await startRun(ctx, user, threadId, { input: 'delegate impatiently' });
    const child = await waitingChild(parent.run_id);
    childWaits.open();

    // Past its deadline the parent resumes, hears `timed_out` and awaits again.
    await eventually(
      () => Promise.resolve(requestsFor(fake, 'delegate impatiently').length),
      (count) => count >= 3,
    );
    await parkedFor(parent.run_id, child.id);
    expect(resultOf(fake, 'delegate impatiently', 'short')).toEqual({
      run_id: child.id,
      status: 'waiting',
      timed_out: true,
    });
    expect((await childRuns(ctx, parent.run_id))[0].status).toBe('waiting');
    expect(await leaseOf(child.id)).toBeNull();
    expect((await waitingPoint(ctx, user, child.id)).body.status).toBe('open');
    const file = workdirFile(ctx, user.id, threadId, 'slow.md');
    expect(existsSync(file)).toBe(false);

    const answered = await decide(ctx, user, child.id, { decisions: { call_w: { decision: 'approve' } } });
    expect(answered.status).toBe(200);
    expect(await waitForStatus(ctx, child.id, isTerminal)).toBe('completed');
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    expect(readFileSync(file, 'utf8')).toBe('hello');
    expect(resultOf(fake, 'delegate impatiently', 'long')).toEqual({
      run_id: child.id,
      status: 'completed',
      output: 'slow note written',
    });
    const told = await subagentEventsAbout(parent.run_id, child.id);
    expect(told.map((event) => event.payload.status)).toEqual(['queued', 'waiting', 'completed']);
  });

  it('cancelling the parent cancels the waiting child and its approval point', async () => {
    scripts
      .on('write never', writingChild('never.md', 'unused'))
      .on(
        'delegate then cancel',
        parentTurns([
          () => ({ toolCalls: [startCall('start', 'write never')] }),
          (r) => ({ toolCalls: [call('wait', 'subagent_await', { run_id: r.get('start')!.run_id })] }),
          () => ({ text: 'never' }),
        ]),
      );
    const threadId = await newThread(ctx, user, parentSlug);
    const parent = await startRun(ctx, user, threadId, { input: 'delegate then cancel' });
    const child = await waitingChild(parent.run_id);
    await parkedFor(parent.run_id, child.id);

    const cancelled = await ctx.http.post(`/api/runs/${parent.run_id}/cancel`).set(auth(user));
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('cancelled');
    expect(await waitForStatus(ctx, child.id, isTerminal)).toBe('cancelled');
    const point = await waitingPoint(ctx, user, child.id);
    expect(point.body).toMatchObject({ run_id: child.id, kind: 'approval', status: 'cancelled' });
    const late = await decide(ctx, user, child.id, { decisions: { call_w: { decision: 'approve' } } });
    expect([late.status, late.body.code]).toEqual([409, 'runs.not_waiting']);
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'never.md'))).toBe(false);
    expect(requestsFor(fake, 'write never')).toHaveLength(1);
    expect((await eventsOf(ctx, parent.run_id)).at(-1)).toMatchObject({
      type: 'done',
      payload: { status: 'cancelled' },
    });
    expect((await eventsOf(ctx, child.id)).at(-1)).toMatchObject({
      type: 'done',
      payload: { status: 'cancelled' },
    });
  });
});
