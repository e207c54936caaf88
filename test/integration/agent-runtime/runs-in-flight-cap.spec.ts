import { RunReconciler } from '../../../src/modules/agent-runtime/worker/run-reconciler';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { eventually } from '../../support/runs/run-event-rows';
import { isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { userInput } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

const CAP = 3;

/**
 * `RUN_MAX_IN_FLIGHT_PER_USER`: a user's runs beyond the cap stay queued (held) while another user's run
 * goes ahead; each of the user's runs that leaves flight lets the oldest held one go. The reconciler
 * runs only when a test calls it, so what dispatches held runs here is the departures themselves.
 */
describe('runs: the per-user in-flight cap', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let gate: { open: () => void; opened: Promise<void> };

  const newGate = () => {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({
      RUN_MAX_IN_FLIGHT_PER_USER: String(CAP),
      RUN_RECONCILE_SECONDS: '600',
    }));
    // Inputs starting with "held" wait at the model until the test opens the gate.
    fake.route((body) => {
      const input = userInput(body);
      const reply = { text: `answer to ${input}` };
      return input.startsWith('held') ? { reply, after: gate.opened } : reply;
    });
  });
  afterAll(() => close());
  beforeEach(() => (gate = newGate()));
  afterEach(() => gate.open());

  const counts = async (user: TestUser) => {
    const [row] = await ctx.dataSource.query<{ in_flight: number; held: number }[]>(
      `SELECT count(*) FILTER (WHERE status IN ('running', 'cancel_requested'))::int AS in_flight,
              count(*) FILTER (WHERE status = 'queued' AND held_at IS NOT NULL)::int AS held
         FROM runs WHERE user_id = $1`,
      [user.id],
    );
    return row;
  };

  /** Starts `n` runs of `user` at once, each on its own thread. */
  const startMany = async (user: TestUser, n: number, prefix: string) => {
    const threads = await Promise.all(Array.from({ length: n }, () => newThread(ctx, user)));
    return Promise.all(threads.map((thread, i) => startRun(ctx, user, thread, { input: `${prefix} ${i}` })));
  };

  /** The largest number of `user`'s runs in flight seen until `until` settles. */
  const watchInFlight = (user: TestUser, until: Promise<unknown>) => {
    let max = 0;
    let stop = false;
    void until.finally(() => (stop = true));
    return (async () => {
      while (!stop) {
        max = Math.max(max, (await counts(user)).in_flight);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return max;
    })();
  };

  it('holds a user at the cap, even when all their runs are claimed at once, while another user goes ahead', async () => {
    const heavy = await ctx.newUser();
    const light = await ctx.newUser();
    const runs = await startMany(heavy, 8, 'held');

    // Eight jobs reach the worker together: exactly CAP are claimed, the rest are marked held.
    const settled = await eventually(
      () => counts(heavy),
      (c) => c.in_flight + c.held === 8,
    );
    expect(settled).toEqual({ in_flight: CAP, held: 8 - CAP });

    // The other user's run is not behind them.
    const other = await startRun(ctx, light, await newThread(ctx, light), { input: 'quick' });
    expect(await waitForStatus(ctx, other.run_id, isTerminal)).toBe('completed');
    expect(await counts(heavy)).toEqual({ in_flight: CAP, held: 8 - CAP });

    // Once the model answers, every held run is let go by the departures, never more than CAP at once.
    const all = Promise.all(runs.map((run) => waitForStatus(ctx, run.run_id, isTerminal, 30_000)));
    const maxInFlight = watchInFlight(heavy, all);
    gate.open();
    expect(await all).toEqual(Array(8).fill('completed'));
    expect(await maxInFlight).toBeLessThanOrEqual(CAP);
    expect(await counts(heavy)).toEqual({ in_flight: 0, held: 0 });
  });

  it('lets the reconciler skip held runs while their user is at the cap, and dispatch them once not', async () => {
    const user = await ctx.newUser();
    const runs = await startMany(user, CAP + 2, 'held');
    await eventually(
      () => counts(user),
      (c) => c.in_flight === CAP && c.held === 2,
    );
    // Old enough for the reconciler to look at them.
    await ctx.dataSource.query(
      `UPDATE runs SET created_at = created_at - interval '1 hour' WHERE user_id = $1 AND status = 'queued'`,
      [user.id],
    );
    const reconciler = ctx.app.get(RunReconciler, { strict: false });
    expect((await reconciler.reconcile()).dispatched).toBe(0);

    // A held run whose let-go was lost (its mark cleared, no job) is the reconciler's once a slot is free.
    const heldIds = runs.map((run) => run.run_id);
    const [{ id: lost }] = await ctx.dataSource.query<{ id: string }[]>(
      `SELECT id FROM runs WHERE id = ANY($1) AND status = 'queued' ORDER BY created_at LIMIT 1`,
      [heldIds],
    );
    await ctx.dataSource.query(`UPDATE runs SET held_at = NULL WHERE id = $1`, [lost]);
    await ctx.dataSource.query(
      `UPDATE runs SET status = 'cancelled', finished_at = now(), lease_token = NULL
        WHERE id = ANY($1) AND status = 'running'`,
      [heldIds],
    );
    expect((await reconciler.reconcile()).dispatched).toBeGreaterThanOrEqual(1);
    gate.open();
    expect(await waitForStatus(ctx, lost, isTerminal)).toBe('completed');
  });
});

describe('runs: the in-flight cap and subagents', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({
      RUN_MAX_IN_FLIGHT_PER_USER: '1',
      RUN_RECONCILE_SECONDS: '600',
    }));
  });
  afterAll(() => close());

  it('runs a child of a parent at a cap of one: the parent parks in subagent_await and frees its slot', async () => {
    const user = await ctx.newUser();
    fake.route((body) => {
      const input = userInput(body);
      if (input === 'child task') return { text: 'child done' };
      const results = body.messages.filter((message) => message.role === 'tool').length;
      if (results === 0)
        return {
          toolCalls: [
            {
              id: 's1',
              name: 'subagent_start',
              args: { description: 'child task', subagent_slug: 'general-purpose' },
            },
          ],
        };
      if (results === 1) {
        const started = JSON.parse(
          String(body.messages.find((message) => message.role === 'tool')!.content),
        ) as { run_id: string };
        return { toolCalls: [{ id: 'a1', name: 'subagent_await', args: { run_id: started.run_id } }] };
      }
      return { text: 'parent done' };
    });
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'parent' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal, 30_000)).toBe('completed');
    const [child] = await ctx.dataSource.query<{ status: string }[]>(
      `SELECT status FROM runs WHERE parent_run_id = $1`,
      [parent.run_id],
    );
    expect(child.status).toBe('completed');
  });
});
