import { randomUUID } from 'node:crypto';
import { RunTransitions } from '../../../src/modules/agent-runtime/runs/run-transitions';
import {
  RUN_STATE_MACHINE,
  TRANSITION_NAMES,
  type TransitionName,
} from '../../../src/modules/agent-runtime/runs/run-state-machine';
import { RUN_STATUSES, type RunStatus } from '../../../src/modules/agent-runtime/runs/run-status';
import { ThreadEntity } from '../../../src/modules/threads/thread.entity';
import { newThread, startRun } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

interface Seeded {
  id: string;
  threadId: string;
  agentSlug: string;
  lease: string;
}

/**
 * One way of applying transitions (a method of `RunTransitions`): the transitions it may apply, and
 * how the run is seeded so their guards hold. A statement that applies several picks the one whose
 * from-statuses hold the run's status.
 */
interface Application {
  applies: TransitionName[];
  seed?: { attempts?: number; leaseExpired?: boolean; awaiting?: boolean };
  apply: (transitions: RunTransitions, run: Seeded, ctx: TestContext) => Promise<unknown>;
}

const outcome = (status: 'completed' | 'failed' | 'cancelled') => (t: RunTransitions, run: Seeded) =>
  t.finish(run, run.lease, status === 'failed' ? { status, error: { code: 'x', message: 'y' } } : { status });

const APPLICATIONS: Application[] = [
  { applies: ['claim'], apply: (t, run) => t.claim(run.id, randomUUID()) },
  {
    applies: ['park_for_question'],
    apply: (t, run) => t.parkForQuestion(run, run.lease, () => Promise.resolve([])),
  },
  {
    applies: ['park_awaiting_children'],
    // The run itself is the awaited (active) run, so nothing wakes it at once.
    apply: (t, run) => t.parkAwaiting(run, run.lease, [run.id], new Date(Date.now() + 60_000)),
  },
  { applies: ['wake'], seed: { awaiting: true }, apply: (t, run) => t.wakeDueAwait(run.id) },
  {
    applies: ['requeue_answered'],
    apply: (t, run, ctx) =>
      ctx.dataSource
        .transaction(async (manager) => {
          const queued = {
            id: run.id,
            attempts: 0,
            originRequestId: null,
            resumeRequestId: null,
            originTraceparent: null,
            resumeTraceparent: null,
          };
          return (await t.requeueAnsweredIn(manager, queued)).afterCommit();
        })
        .catch((error: { code?: string }) => expect(error.code).toBe('runs.not_waiting')),
  },
  { applies: ['finish'], apply: outcome('completed') },
  { applies: ['fail'], apply: outcome('failed') },
  { applies: ['finish_cancelled'], apply: outcome('cancelled') },
  { applies: ['release', 'release_cancelled'], apply: (t, run) => t.release(run, run.lease) },
  {
    applies: ['recover', 'recover_cancelled'],
    seed: { attempts: 1, leaseExpired: true },
    apply: (t, run) => t.recoverExpired(run.id),
  },
  {
    applies: ['recover_exhausted', 'recover_cancelled'],
    seed: { attempts: 99, leaseExpired: true },
    apply: (t, run) => t.recoverExpired(run.id),
  },
  { applies: ['cancel', 'request_cancel'], apply: (t, run) => t.cancel(run.id) },
];

/** Where the run ends up: the transition whose from-statuses hold it, or where it was. */
function expectedStatus(application: Application, status: RunStatus): RunStatus {
  const taken = application.applies.find((name) =>
    (RUN_STATE_MACHINE[name].from as readonly RunStatus[]).includes(status),
  );
  if (taken !== undefined) return RUN_STATE_MACHINE[taken].to;
  // A park refused by a requested cancel ends the run: the cancel wins (`finish_cancelled`).
  const parks: TransitionName[] = ['park_for_question', 'park_awaiting_children'];
  if (parks.includes(application.applies[0]) && status === 'cancel_requested') return 'cancelled';
  return status;
}

describe('the run state machine, walked against the database', () => {
  let ctx: TestContext;
  let user: TestUser;
  let threadId: string;
  let agentSlug: string;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    user = await ctx.newUser();
    threadId = await newThread(ctx, user);
    agentSlug = (await ctx.dataSource.getRepository(ThreadEntity).findOneByOrFail({ id: threadId }))
      .agentSlug;
  });
  afterAll(() => ctx.close());

  async function seed(status: RunStatus, options: Application['seed'] = {}): Promise<Seeded> {
    // Each run on a thread of its own, so it heads its thread's queue.
    const thread = await newThread(ctx, user);
    const id = randomUUID();
    const lease = randomUUID();
    await ctx.dataSource.query(
      `INSERT INTO runs (id, thread_id, user_id, agent_slug, status, input, lease_token, lease_expires_at,
                         attempts, awaited_run_ids, awaiting_until, last_event_seq)
       VALUES ($1, $2, $3, $4, $5, 'walk', $6, now() + make_interval(secs => $7), $8, $9::uuid[], $10, 0)`,
      [
        id,
        thread,
        user.id,
        agentSlug,
        status,
        lease,
        options.leaseExpired === true ? -60 : 60,
        options.attempts ?? 1,
        options.awaiting === true ? [] : null,
        options.awaiting === true ? new Date(Date.now() - 1000) : null,
      ],
    );
    return { id, threadId: thread, agentSlug, lease };
  }

  const row = async (id: string) =>
    (await ctx.dataSource.query<Record<string, unknown>[]>(`SELECT * FROM runs WHERE id = $1`, [id]))[0];
  const events = (id: string) =>
    ctx.dataSource.query<{ type: string; payload: { status?: string } }[]>(
      `SELECT type, payload FROM run_events WHERE run_id = $1 ORDER BY seq`,
      [id],
    );

  it('applies every transition of the table but creation through some statement', () => {
    const applied = new Set(APPLICATIONS.flatMap((application) => application.applies));
    expect(TRANSITION_NAMES.filter((name) => !applied.has(name))).toEqual(['create']);
  });

  for (const application of APPLICATIONS) {
    const label = application.applies.join(' / ');
    it.each(RUN_STATUSES.map((status) => [status]))(`${label} from %s`, async (status) => {
      const run = await seed(status, application.seed);
      const before = await row(run.id);
      await application.apply(ctx.app.get(RunTransitions), run, ctx);
      const after = await row(run.id);
      const expected = expectedStatus(application, status);
      if (expected === status) {
        // Refused: the row and its events are as they were.
        expect(after).toEqual(before);
        expect(await events(run.id)).toEqual([]);
        return;
      }
      expect(after.status).toBe(expected);
      const statuses = (await events(run.id)).filter((e) => e.type === 'status').map((e) => e.payload.status);
      expect(statuses.at(-1)).toBe(expected);
    });
  }

  it('creates a run queued', async () => {
    const created = await startRun(ctx, user, threadId, { input: 'hello' });
    expect(created.status).toBe(RUN_STATE_MACHINE.create.to);
    expect((await row(created.run_id)).status).toBe('queued');
    expect(await events(created.run_id)).toEqual([
      expect.objectContaining({ type: 'status', payload: { status: 'queued' } }),
    ]);
  });
});
