import { randomUUID } from 'node:crypto';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { offeredTools, toolAnswer } from '../../support/runs/model-requests';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { childRuns, eventsOf, requestsFor, SubagentScripts } from '../../support/subagents/subagent-runtime';
import { call, gate, parentTurns, startCall } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';
import { RunReconciler } from '../../../src/modules/agent-runtime/worker/run-reconciler';

const resultOf = (fake: FakeOpenAiServer, input: string, toolCallId: string) => {
  for (const { body } of requestsFor(fake, input)) {
    const answer = toolAnswer(body.messages, toolCallId);
    if (answer !== undefined) return JSON.parse(String(answer.content)) as Record<string, unknown>;
  }
  throw new Error(`no result for ${toolCallId}`);
};

/** Issue 14: the busy rule, continuation, foreign run ids, forbidden tools, cancel cascades. */
describe('subagents: rules', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let scripts: SubagentScripts;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    scripts = new SubagentScripts(fake);
    user = await ctx.newUser();
  });

  afterAll(() => close());

  it('refuses a second run on a busy child thread, then continues that thread once it is idle', async () => {
    const first = gate();
    scripts
      // The continued child thread's requests start with its first task (same checkpoint).
      .on('first part', (body) =>
        body.messages.at(-1)!.content === 'second part'
          ? { text: 'second done' }
          : { reply: { text: 'first done' }, after: first.opened },
      )
      .on('another part', () => ({ text: 'unused' }))
      .on(
        'two parts',
        parentTurns([
          () => ({ toolCalls: [startCall('s1', 'first part')] }),
          (r) => ({ toolCalls: [startCall('busy', 'another part', { thread_id: r.get('s1')!.thread_id })] }),
          (r) => ({ toolCalls: [call('a1', 'subagent_await', { run_id: r.get('s1')!.run_id })] }),
          (r) => ({ toolCalls: [startCall('s2', 'second part', { thread_id: r.get('s1')!.thread_id })] }),
          (r) => ({ toolCalls: [call('a2', 'subagent_await', { run_id: r.get('s2')!.run_id })] }),
          () => ({ text: 'both parts done' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'two parts' });
    expect(await waitForStatus(ctx, parent.run_id, (s) => s === 'waiting')).toBe('waiting');
    first.open();
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');

    const s1 = resultOf(fake, 'two parts', 's1');
    expect(resultOf(fake, 'two parts', 'busy')).toEqual({
      status: 'busy',
      thread_id: s1.thread_id,
      active_run_id: s1.run_id,
    });
    const s2 = resultOf(fake, 'two parts', 's2');
    expect(s2).toMatchObject({ status: 'started', thread_id: s1.thread_id });
    expect(s2.run_id).not.toBe(s1.run_id);
    expect(resultOf(fake, 'two parts', 'a2')).toEqual({
      run_id: s2.run_id,
      status: 'completed',
      output: 'second done',
    });
    // No hidden queueing: the busy start made no run; the continuation ran on the same child thread.
    const kids = await childRuns(ctx, parent.run_id);
    expect(kids.map((kid) => [kid.id, kid.thread_id])).toEqual([
      [s1.run_id, s1.thread_id],
      [s2.run_id, s1.thread_id],
    ]);
    expect(requestsFor(fake, 'another part')).toHaveLength(0);
    // The continued child saw its earlier task on its own checkpoint.
    const childRequests = requestsFor(fake, 'first part');
    expect(
      childRequests
        .at(-1)!
        .body.messages.filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['first part', 'second part']);
  });

  it('continues only a child thread of this conversation and this subagent slug', async () => {
    scripts
      .on('other conversation task', () => ({ text: 'other done' }))
      .on(
        'other conversation',
        parentTurns([
          () => ({ toolCalls: [startCall('o1', 'other conversation task')] }),
          () => ({ text: 'ok' }),
        ]),
      );
    const other = await startRun(ctx, user, await newThread(ctx, user), { input: 'other conversation' });
    expect(await waitForStatus(ctx, other.run_id, isTerminal)).toBe('completed');
    const foreignChildThread = resultOf(fake, 'other conversation', 'o1').thread_id;

    const ownThread = await newThread(ctx, user);
    scripts.on(
      'bad continuations',
      parentTurns([
        () => ({
          toolCalls: [
            startCall('foreign', 'x', { thread_id: foreignChildThread }),
            startCall('parent_thread', 'x', { thread_id: ownThread }),
            startCall('random', 'x', { thread_id: randomUUID() }),
            call('unknown_slug', 'subagent_start', { description: 'x', subagent_slug: 'default-chatbot' }),
          ],
        }),
        () => ({ text: 'refused' }),
      ]),
    );
    const run = await startRun(ctx, user, ownThread, { input: 'bad continuations' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    for (const id of ['foreign', 'parent_thread', 'random'])
      expect(resultOf(fake, 'bad continuations', id)).toEqual({
        error: {
          code: 'subagents.thread_not_found',
          message: 'No child thread with this id belongs to this conversation and subagent.',
        },
      });
    expect(resultOf(fake, 'bad continuations', 'unknown_slug')).toMatchObject({
      error: { code: 'subagents.unknown_subagent' },
    });
    expect(await childRuns(ctx, run.run_id)).toEqual([]);
  });

  it('refuses status, await and cancel of a run this parent did not start, with no data', async () => {
    const held = gate();
    scripts
      .on('held child', () => ({ reply: { text: 'held done' }, after: held.opened }))
      .on(
        'owner parent',
        parentTurns([() => ({ toolCalls: [startCall('own', 'held child')] }), () => ({ text: 'started' })]),
      );
    const owner = await startRun(ctx, user, await newThread(ctx, user), { input: 'owner parent' });
    expect(await waitForStatus(ctx, owner.run_id, isTerminal)).toBe('completed');
    // The owner ended: its child was cancelled with it, but is still another parent's run to anyone else.
    const childId = String(resultOf(fake, 'owner parent', 'own').run_id);

    scripts.on(
      'snooping parent',
      parentTurns([
        () => ({
          toolCalls: [
            call('status', 'subagent_status', { run_id: childId }),
            call('await', 'subagent_await', { run_id: childId }),
            call('cancel', 'subagent_cancel', { run_id: childId }),
            call('self', 'subagent_status', { run_id: owner.run_id }),
            call('random', 'subagent_await', { run_id: randomUUID() }),
          ],
        }),
        () => ({ text: 'nothing' }),
      ]),
    );
    const snoop = await startRun(ctx, user, await newThread(ctx, user), { input: 'snooping parent' });
    expect(await waitForStatus(ctx, snoop.run_id, isTerminal)).toBe('completed');
    for (const id of ['status', 'await', 'cancel', 'self', 'random'])
      expect(resultOf(fake, 'snooping parent', id)).toEqual({
        error: {
          code: 'subagents.run_not_found',
          message: 'No subagent run with this id was started by this run.',
        },
      });
    held.open();
  });

  it('refuses forbidden tools a subagent calls anyway, as errors bound to each call', async () => {
    scripts
      .on('forbidden tries', (body) =>
        body.messages.some((m) => m.role === 'tool')
          ? { text: 'gave up' }
          : {
              toolCalls: [
                call('present', 'present_artifacts', { paths: ['/home/gem/user-data/workdir/x.md'] }),
                call('ask', 'ask_user_question', { questions: [{ question: 'why?' }] }),
                call('nested', 'subagent_start', { description: 'deeper', subagent_slug: 'general-purpose' }),
                call('await', 'subagent_await', { run_id: randomUUID() }),
              ],
            },
      )
      .on(
        'delegate forbidden',
        parentTurns([
          () => ({ toolCalls: [startCall('f', 'forbidden tries')] }),
          (r) => ({ toolCalls: [call('fa', 'subagent_await', { run_id: r.get('f')!.run_id })] }),
          () => ({ text: 'ok' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'delegate forbidden' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const [child] = await childRuns(ctx, parent.run_id);
    expect(child.status).toBe('completed');
    expect(resultOf(fake, 'delegate forbidden', 'fa')).toEqual({
      run_id: child.id,
      status: 'completed',
      output: 'gave up',
    });
    const [firstChildRequest] = requestsFor(fake, 'forbidden tries');
    const offered = offeredTools(firstChildRequest);
    for (const name of ['present_artifacts', 'ask_user_question', 'subagent_start', 'subagent_await'])
      expect(offered).not.toContain(name);
    for (const [id, name] of [
      ['present', 'present_artifacts'],
      ['ask', 'ask_user_question'],
      ['nested', 'subagent_start'],
      ['await', 'subagent_await'],
    ])
      expect(resultOf(fake, 'forbidden tries', id)).toEqual({
        error: {
          code: 'tools.forbidden_for_subagent',
          message: `Subagents may not use "${name}".`,
          details: { tool: name },
        },
      });
    await ctx.app.get(ToolCallAuditWriter).flush(); // audit rows are written in batches
    const audit = await ctx.dataSource.query<{ tool_name: string; outcome: string }[]>(
      `SELECT tool_name, outcome FROM tool_calls WHERE run_id = $1 ORDER BY tool_name`,
      [child.id],
    );
    expect(audit.map((row) => [row.tool_name, row.outcome])).toEqual([
      ['ask_user_question', 'refused'],
      ['present_artifacts', 'refused'],
      ['subagent_await', 'refused'],
      ['subagent_start', 'refused'],
    ]);
    expect(await childRuns(ctx, child.id)).toEqual([]);
  });

  it('answers an await whose child outlives its timeout with timed_out, and status shows progress', async () => {
    const held = gate();
    scripts
      .on('slow task', (body) =>
        body.messages.some((m) => m.role === 'tool')
          ? { reply: { text: 'slow done' }, after: held.opened }
          : { text: 'looking first', toolCalls: [call('look', 'ls', { path: '/home/gem/user-data/' })] },
      )
      .on(
        'impatient',
        parentTurns([
          () => ({ toolCalls: [startCall('s', 'slow task')] }),
          (r) => ({ toolCalls: [call('w', 'subagent_await', { run_id: r.get('s')!.run_id, timeout_s: 1 })] }),
          (r) => ({ toolCalls: [call('st', 'subagent_status', { run_id: r.get('s')!.run_id })] }),
          () => ({ text: 'gave up waiting' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'impatient' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const childId = resultOf(fake, 'impatient', 's').run_id;
    expect(resultOf(fake, 'impatient', 'w')).toEqual({ run_id: childId, status: 'running', timed_out: true });
    expect(resultOf(fake, 'impatient', 'st')).toEqual({
      run_id: childId,
      status: 'running',
      progress: {
        recent: [
          { role: 'user', text: 'slow task' },
          { role: 'assistant', text: 'looking first' },
          { role: 'tool', name: 'ls' },
        ],
      },
    });
    held.open();
  });

  it('parks again when a lost worker’s parent is recovered while its child still runs', async () => {
    const held = gate();
    scripts
      .on('survivor task', () => ({ reply: { text: 'survived' }, after: held.opened }))
      .on(
        'crashing parent',
        parentTurns([
          () => ({ toolCalls: [startCall('c', 'survivor task')] }),
          (r) => ({ toolCalls: [call('ca', 'subagent_await', { run_id: r.get('c')!.run_id })] }),
          () => ({ text: 'after the crash' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'crashing parent' });
    expect(await waitForStatus(ctx, parent.run_id, (s) => s === 'waiting')).toBe('waiting');
    // As if its worker had died after the interrupt and before parking: running under an expired lease.
    await ctx.dataSource.query(
      `UPDATE runs SET status = 'running', lease_token = gen_random_uuid(), lease_expires_at = now() - interval '1 second',
              awaited_run_ids = NULL, awaiting_until = NULL WHERE id = $1`,
      [parent.run_id],
    );
    await ctx.app.get(RunReconciler, { strict: false }).reconcile();
    expect(await waitForStatus(ctx, parent.run_id, (s) => s === 'waiting')).toBe('waiting');
    const [again] = await ctx.dataSource.query<{ attempts: number; awaited: string[] | null }[]>(
      `SELECT attempts, awaited_run_ids AS awaited FROM runs WHERE id = $1`,
      [parent.run_id],
    );
    expect(again.attempts).toBe(2);
    expect(again.awaited).toHaveLength(1);
    held.open();
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const childId = resultOf(fake, 'crashing parent', 'c').run_id;
    expect(resultOf(fake, 'crashing parent', 'ca')).toEqual({
      run_id: childId,
      status: 'completed',
      output: 'survived',
    });
  });

  it('cancels an awaiting parent’s active children with it', async () => {
    const held = gate();
    scripts
      .on('long task', () => ({ reply: { text: 'late' }, after: held.opened }))
      .on(
        'cancel me',
        parentTurns([
          () => ({ toolCalls: [startCall('l', 'long task')] }),
          (r) => ({ toolCalls: [call('la', 'subagent_await', { run_id: r.get('l')!.run_id })] }),
          () => ({ text: 'never' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'cancel me' });
    expect(await waitForStatus(ctx, parent.run_id, (s) => s === 'waiting')).toBe('waiting');
    const res = await ctx.http.post(`/api/runs/${parent.run_id}/cancel`).set(auth(user));
    expect(res.status).toBe(200);
    const [child] = await childRuns(ctx, parent.run_id);
    expect(await waitForStatus(ctx, child.id, isTerminal)).toBe('cancelled');
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('cancelled');
    held.open();
    expect(requestsFor(fake, 'cancel me')).toHaveLength(2);
    // The parent's stream ended with its own `done`: a child ending after it adds nothing.
    expect((await eventsOf(ctx, parent.run_id)).at(-1)).toMatchObject({
      type: 'done',
      payload: { status: 'cancelled' },
    });
  });

  it('cancels the active children of a parent that completes without awaiting them', async () => {
    const held = gate();
    scripts
      .on('forgotten task', () => ({ reply: { text: 'late' }, after: held.opened }))
      .on(
        'fire and forget',
        parentTurns([
          () => ({ toolCalls: [startCall('f', 'forgotten task')] }),
          () => ({ text: 'done early' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'fire and forget' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const [child] = await childRuns(ctx, parent.run_id);
    expect(await waitForStatus(ctx, child.id, isTerminal)).toBe('cancelled');
    held.open();
    expect((await eventsOf(ctx, parent.run_id)).at(-1)).toMatchObject({
      type: 'done',
      payload: { status: 'completed' },
    });
  });
});
