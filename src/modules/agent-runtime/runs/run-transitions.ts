import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config.js';
import { retryOnConflict } from '../../../database/transient-conflict.js';
import { Metrics, type RunEndStatus } from '../../../observability/metrics/index.js';
import { doneEvent, RunEvents, statusEvent } from '../events/run-events.js';
import type { NewRunEvent, RunEvent } from '../events/run-event.js';
import type { NewMessage } from '../messages/messages.repository.js';
import { RunDispatcher } from '../queue/run-dispatcher.js';
import { RunCancelSignals } from '../worker/run-cancel-signals.js';
import { RUN_STATE_MACHINE, transitionInto, type TransitionName } from './run-state-machine.js';
import { isTerminal, type RunStatus } from './run-status.js';
import { RunStore, type EndedRow, type NewRunRow } from './run-store.js';
import type { RunEntity, RunError } from './run.entity.js';
import { LeaseLostError, RunFailureCodes, RunsErrors } from './runs.errors.js';
import { RunsRepository, type QueuedRun } from './runs.repository.js';

export type { NewRunRow };

export type ClaimResult =
  | { kind: 'claimed'; run: RunEntity }
  /** Another run holds the thread: try again shortly. */
  | { kind: 'not_head' }
  /** Its user has no free in-flight slot: it stays queued, held, until one of theirs leaves flight. */
  | { kind: 'held' }
  /** Finished, cancelled, held by a live lease, or gone: nothing to do. */
  | { kind: 'not_claimable' };

export type ParkResult = 'parked' | 'not_running';

/** `requeued`: every awaited child had already ended (or the deadline passed) when the parent parked. */
export type AwaitParkResult = ParkResult | 'requeued';

export interface RunOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  error?: RunError;
}

type RunRef = Pick<RunEntity, 'id' | 'threadId'>;
/**
 * A run as its lease holder knows it: what its ending is counted under (`agentSlug`), and since when
 * it runs (`startedAt`, its first claim; unknown to a caller that passes none).
 */
export type ExecutedRun = Pick<RunEntity, 'id' | 'threadId' | 'agentSlug'> & { startedAt?: Date | null };
/** A run whose thread the effects of its transition do not need. */
const runOnly = (id: string): RunRef => ({ id, threadId: '' });

/** The run a committed ending transition ended, as the metrics count it. */
interface EndedRun {
  agentSlug: string;
  /** Its first claim; null when the process ending it does not know it. */
  startedAt: Date | null;
}

/** What a committed transition hands to its `after` effects. */
interface Committed {
  run: RunRef;
  /** For a transition into a terminal status: the run it ended. */
  ended?: EndedRun;
  events: RunEvent[];
  /** The run, queued at the head of its thread (`dispatch`). */
  queued?: QueuedRun | null;
  /** The wake-up of a run parked for its children (`schedule_wake`). */
  wake?: { run: QueuedRun; until: Date };
  /** The parent told of this run (`publish`, `dispatch_parent`). */
  parent?: ParentNotice | null;
}

/** A parent's events, and the parent if it was queued again. */
interface ParentNotice {
  runId: string;
  events: RunEvent[];
  queued: QueuedRun | null;
}

const ENDINGS = ['finish', 'fail', 'finish_cancelled'] as const satisfies TransitionName[];

/** The events a transition appends (its table entry), given the ones only its caller knows. */
function transitionEvents(name: TransitionName, given: { error?: RunError; waiting?: NewRunEvent[] } = {}) {
  const { to, events } = RUN_STATE_MACHINE[name];
  return events.flatMap((event): NewRunEvent[] => {
    switch (event) {
      case 'status':
        return [statusEvent(to)];
      case 'done':
        return [doneEvent(to)];
      case 'error?':
        return given.error === undefined
          ? []
          : [{ type: 'error', payload: { code: given.error.code, message: given.error.message } }];
      case 'waiting':
        return given.waiting ?? [];
    }
    throw new Error(`unknown event ${event as string} of ${name}`);
  });
}

/** What a parent hears of its child run: created, or ended. */
function subagentEvent(runId: string, threadId: string, slug: string, status: RunStatus): NewRunEvent {
  return { type: 'subagent', payload: { run_id: runId, thread_id: threadId, subagent_slug: slug, status } };
}

/**
 * Applies the transitions of a run's status (`run-state-machine.ts`): each through a statement of
 * `RunStore` that matches only the table's from-statuses, with the table's events, in one
 * transaction; then the table's `after` effects. A call whose run is in no from-status writes nothing.
 */
@Injectable()
export class RunTransitions {
  private readonly logger = new Logger(RunTransitions.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: RunStore,
    private readonly runs: RunsRepository,
    private readonly events: RunEvents,
    private readonly dispatcher: RunDispatcher,
    private readonly config: AppConfig,
    private readonly signals: RunCancelSignals,
    private readonly metrics: Metrics,
  ) {}

  private get leaseSeconds(): number {
    return this.config.runtime.runLeaseSeconds;
  }

  /**
   * `create`, inside run creation's transaction (which holds the thread's lock): the run with its first
   * event and user message and, for a subagent's run, the parent's `subagent` event under its lease.
   * Call `afterCommit` once committed.
   */
  async createIn(
    manager: EntityManager,
    row: NewRunRow,
    userMessage: NewMessage,
    options: { headsThread: boolean; parent?: { runId: string; leaseToken: string } },
  ): Promise<{ run: RunEntity; events: RunEvent[]; afterCommit: () => Promise<void> }> {
    const { run, events } = await this.store.createRun(manager, row, transitionEvents('create'), userMessage);
    const { parent } = options;
    let notice: ParentNotice | null = null;
    if (parent !== undefined) {
      const started = subagentEvent(run.id, run.threadId, run.agentSlug, run.status);
      const parentEvents = await this.store.appendEventsFenced(
        parent.runId,
        [started],
        parent.leaseToken,
        manager,
      );
      if (parentEvents === null) throw new LeaseLostError(parent.runId);
      notice = { runId: parent.runId, events: parentEvents, queued: null };
    }
    const queued = options.headsThread ? run : null;
    return {
      run,
      events,
      afterCommit: () => this.after('create', { run, events, queued, parent: notice }),
    };
  }

  /**
   * `claim` under a new lease: the run as it is now, in one statement with its event, under its user's
   * slot lock (`user-run-slots.ts`); `held` when the user is at the in-flight cap.
   */
  async claim(runId: string, leaseToken: string): Promise<ClaimResult> {
    const claimed = await this.store.claim(
      runId,
      leaseToken,
      this.leaseSeconds,
      transitionEvents('claim'),
      this.config.runtime.maxInFlightPerUser,
    );
    if (claimed === 'held') return { kind: 'held' };
    if (claimed !== null) {
      const { run } = claimed;
      const { startedAt } = run;
      // The first claim set `started_at`: the run waited from its creation until then.
      const firstClaim = run.attempts === 1 && startedAt !== null;
      this.metrics.runClaimed(firstClaim ? (startedAt.getTime() - run.createdAt.getTime()) / 1000 : null);
      await this.after('claim', { run, events: claimed.events });
      return { kind: 'claimed', run };
    }
    const current = await this.runs.statusOf(runId);
    return current === 'queued' ? { kind: 'not_head' } : { kind: 'not_claimable' };
  }

  /** Renews the lease (no transition); the run's status, or null when the lease is not this token's. */
  heartbeat(runId: string, leaseToken: string): Promise<RunStatus | null> {
    return this.store.renewLease(runId, leaseToken, this.leaseSeconds);
  }

  /** `finish`, `fail` or `finish_cancelled` by the lease holder. False when the lease was lost. */
  async finish(run: ExecutedRun, leaseToken: string, outcome: RunOutcome): Promise<boolean> {
    const name = transitionInto(ENDINGS, outcome.status);
    const events = transitionEvents(name, { error: outcome.error });
    const error = outcome.error ?? null;
    const ended = { agentSlug: run.agentSlug, startedAt: run.startedAt ?? null };
    // A run with no parent has no one else to tell: its ending is one statement.
    const alone = await this.store.endWithoutParent(run.id, leaseToken, outcome.status, error, events);
    if (alone !== null) {
      await this.after(name, { run, ended, events: alone });
      return true;
    }
    const result = await this.dataSource.transaction(async (manager) => {
      const row = await this.store.end(manager, run.id, leaseToken, outcome.status, error);
      if (row === null) return null;
      return {
        events: await this.store.appendEvents(run.id, events, manager),
        parent: await this.tellParentIn(manager, run.id, row),
      };
    });
    if (result === null) return false;
    await this.after(name, { run, ended, ...result });
    return true;
  }

  /**
   * `park_for_question`: `writePoint` stores the waiting point in the same transaction (its events
   * come before the status event); a subagent's parent is told it waits. When the lease is gone or a cancel was requested meanwhile nothing
   * is written, and the cancel wins over the question (the run ends `cancelled` if this worker still
   * holds it).
   */
  async parkForQuestion(
    run: ExecutedRun,
    leaseToken: string,
    writePoint: (manager: EntityManager) => Promise<NewRunEvent[]>,
  ): Promise<ParkResult> {
    const parked = await this.dataSource.transaction(async (manager) => {
      const row = await this.store.parkForQuestion(manager, run.id, leaseToken);
      if (row === null) return null;
      const waiting = await writePoint(manager);
      const events = await this.store.appendEvents(
        run.id,
        transitionEvents('park_for_question', { waiting }),
        manager,
      );
      return { events, parent: await this.tellParentIn(manager, run.id, row) };
    });
    if (parked === null) {
      await this.finish(run, leaseToken, { status: 'cancelled' });
      return 'not_running';
    }
    await this.after('park_for_question', { run, ...parked });
    return 'parked';
  }

  /**
   * `park_awaiting_children`: the run waits for `childRunIds` (no waiting point) and gives up its lease,
   * so its worker slot is free while the children run. The last of them to end wakes it
   * (`tellParentIn`), or a wake-up job at `until` does. A child that ended before this park found the
   * run still running: the row is locked now, so it is looked at again here and the run woken at once
   * if nothing is left to wait for. A cancel requested meanwhile wins, as in `parkForQuestion`.
   */
  async parkAwaiting(
    run: ExecutedRun,
    leaseToken: string,
    childRunIds: string[],
    until: Date,
  ): Promise<AwaitParkResult> {
    const result = await this.dataSource.transaction(async (manager) => {
      const parked = await this.store.parkAwaitingChildren(manager, run.id, leaseToken, childRunIds, until);
      if (parked === null) return null;
      const queued = await this.store.wakeIfDue(manager, run.id);
      const applied = [
        transitionEvents('park_awaiting_children'),
        ...(queued === null ? [] : [transitionEvents('wake')]),
      ];
      return { parked, queued, events: await this.store.appendEvents(run.id, applied.flat(), manager) };
    });
    if (result === null) {
      await this.finish(run, leaseToken, { status: 'cancelled' });
      return 'not_running';
    }
    const { parked, queued, events } = result;
    if (queued !== null) {
      await this.after('wake', { run, events, queued });
      return 'requeued';
    }
    await this.after('park_awaiting_children', { run, events, wake: { run: parked, until } });
    return 'parked';
  }

  /** `wake`: a run parked for its children whose deadline passed (or whose children all ended). */
  async wakeDueAwait(runId: string): Promise<boolean> {
    const result = await this.dataSource.transaction(async (manager) => {
      const queued = await this.store.wakeIfDue(manager, runId);
      if (queued === null) return null;
      return { queued, events: await this.store.appendEvents(runId, transitionEvents('wake'), manager) };
    });
    if (result === null) return false;
    await this.after('wake', { run: runOnly(runId), ...result });
    return true;
  }

  /**
   * `requeue_answered`, inside the answer's transaction (which locked the run row). Refused with
   * `runs.not_waiting` when the run is not waiting. Call `afterCommit` once committed.
   */
  async requeueAnsweredIn(
    manager: EntityManager,
    run: QueuedRun,
  ): Promise<{ afterCommit: () => Promise<void> }> {
    // The answering request is named on the log lines of the execution it resumes.
    if (!(await this.store.requeueAnswered(manager, run.id, run.resumeRequestId, run.resumeTraceparent)))
      throw RunsErrors.notWaiting();
    const events = await this.store.appendEvents(run.id, transitionEvents('requeue_answered'), manager);
    return {
      afterCommit: () => this.after('requeue_answered', { run: runOnly(run.id), events, queued: run }),
    };
  }

  /** `release` (or `release_cancelled`) on shutdown or an outage: another worker continues the run. */
  async release(run: ExecutedRun, leaseToken: string): Promise<boolean> {
    const result = await this.dataSource.transaction(async (manager) => {
      const row = await this.store.release(manager, run.id, leaseToken);
      return row === null ? null : this.appendEnding(manager, run.id, row, ['release', 'release_cancelled']);
    });
    if (result === null) return false;
    const ended = { agentSlug: run.agentSlug, startedAt: run.startedAt ?? null };
    await this.after(result.name, { run, ended, ...result });
    return true;
  }

  /**
   * `recover`, `recover_exhausted` or `recover_cancelled`: a run whose lease expired (its worker died or
   * stalled) is queued again to resume from its checkpoint, failed after its last claim, or cancelled
   * if a cancel was requested.
   */
  async recoverExpired(runId: string): Promise<RunStatus | null> {
    const { maxAttempts } = this.config.runtime;
    const exhausted = {
      code: RunFailureCodes.workerLost,
      message: `The worker executing the run stopped responding (${maxAttempts} attempts).`,
    };
    const result = await this.dataSource.transaction(async (manager) => {
      const row = await this.store.recoverExpired(manager, runId, maxAttempts, exhausted);
      if (row === null) return null;
      const names = ['recover', 'recover_exhausted', 'recover_cancelled'] as const;
      return { row, ...(await this.appendEnding(manager, runId, row, names, row.error ?? undefined)) };
    });
    if (result === null) return null;
    const { row } = result;
    const ended = { agentSlug: row.agent_slug, startedAt: null };
    await this.after(result.name, { run: { id: runId, threadId: row.thread_id }, ended, ...result });
    return row.status;
  }

  /**
   * `cancel` (a queued or waiting run ends at once, its open question withdrawn) or `request_cancel`
   * (a running run's worker is asked to stop). The status after the call, or null when the run had
   * already finished.
   */
  async cancel(runId: string): Promise<RunStatus | null> {
    // The run row is locked before the waiting points, as answering does.
    const result = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const row = await this.store.cancel(manager, runId);
        if (row === null) return null;
        await this.store.withdrawQuestion(manager, runId);
        return { row, ...(await this.appendEnding(manager, runId, row, ['cancel', 'request_cancel'])) };
      }),
    );
    if (result === null) {
      if ((await this.runs.statusOf(runId)) !== 'cancel_requested') return null;
      // Asked again: the worker is signalled again (a signal may have been lost), and so are the children.
      await this.signals.request(runId);
      await this.cancelActiveChildren(runId);
      return 'cancel_requested';
    }
    const { row } = result;
    const ended = { agentSlug: row.agent_slug, startedAt: null };
    await this.after(result.name, { run: { id: runId, threadId: row.thread_id }, ended, ...result });
    return row.status;
  }

  /**
   * The active children of a run that ended or is being cancelled are cancelled, and theirs: a queued
   * or waiting child at once, a running one asked to stop (signalled to its worker).
   */
  async cancelActiveChildren(parentRunId: string): Promise<void> {
    for (const child of await this.runs.activeChildren(parentRunId)) await this.cancel(child);
  }

  /**
   * Inside the transaction of a statement that applied one of `names`: the events of the one the run
   * took (from its new status) and, when it ended, its parent told.
   */
  private async appendEnding(
    manager: EntityManager,
    runId: string,
    row: EndedRow,
    names: readonly TransitionName[],
    error?: RunError,
  ): Promise<{ name: TransitionName; events: RunEvent[]; parent: ParentNotice | null }> {
    const name = transitionInto(names, row.status);
    const events = await this.store.appendEvents(runId, transitionEvents(name, { error }), manager);
    const parent = isTerminal(row.status) ? await this.tellParentIn(manager, runId, row) : null;
    return { name, events, parent };
  }

  /**
   * Inside the transaction that ended a child run, or parked it for its user (a tool call to approve:
   * status `waiting`, so the owner knows which run to answer): its parent gets a `subagent` event with
   * the child's status and is woken if it is parked for its children with nothing left to wait for (or
   * past its deadline; a waiting child is still active). The
   * parent row is locked first, so a parent parking at the same time either sees this child ended or
   * is seen parked here. A parent that has ended hears nothing (its `done` stays last).
   */
  private async tellParentIn(
    manager: EntityManager,
    childId: string,
    child: EndedRow,
  ): Promise<ParentNotice | null> {
    const parentId = child.parent_run_id;
    if (parentId === null) return null;
    const status = await this.store.lockStatus(manager, parentId);
    if (status === null || isTerminal(status)) return null;
    const told = subagentEvent(childId, child.thread_id, child.agent_slug, child.status);
    const queued = await this.store.wakeIfDue(manager, parentId);
    const events = [told, ...(queued === null ? [] : transitionEvents('wake'))];
    return { runId: parentId, events: await this.store.appendEvents(parentId, events, manager), queued };
  }

  /**
   * The held runs of the user of run `runId`, which left flight, that its free slots let go. A failure
   * loses nothing (the transition has committed): the reconciler dispatches a held run once its user
   * has a free slot.
   */
  private async dispatchHeld(runId: string): Promise<void> {
    let released: QueuedRun[];
    try {
      released = await this.store.releaseHeldRuns(runId, this.config.runtime.maxInFlightPerUser);
    } catch (error) {
      this.logger.warn(
        { run_id: runId, err: (error as Error).message },
        'held runs not let go; the reconciler will',
      );
      return;
    }
    for (const held of released) await this.dispatcher.dispatch(held);
  }

  /**
   * The `after` effects of transition `name`, in the table's order; first, a transition into a
   * terminal status is counted (its statement matched, so this is the one commit of the run's end).
   */
  private async after(name: TransitionName, committed: Committed): Promise<void> {
    const { run, events, queued, wake, parent, ended } = committed;
    const to = RUN_STATE_MACHINE[name].to;
    if (ended !== undefined && isTerminal(to)) {
      const seconds = ended.startedAt === null ? null : (Date.now() - ended.startedAt.getTime()) / 1000;
      this.metrics.runEnded(to as RunEndStatus, ended.agentSlug, seconds);
    }
    const effects = RUN_STATE_MACHINE[name].after;
    for (const effect of effects) {
      switch (effect) {
        case 'publish': {
          const published = (async () => {
            await this.events.publish(run.id, events);
            if (parent != null) await this.events.publish(parent.runId, parent.events);
          })();
          // A publish nothing follows is not waited for: the run goes on while Redis takes it (the bus
          // logs a failure, and streams catch up from the table).
          if (effects.length > 1) await published;
          break;
        }
        case 'dispatch':
          if (queued != null) await this.dispatcher.dispatch(queued);
          break;
        case 'dispatch_thread_head':
          if (run.threadId === '') throw new Error(`${name} needs the run's thread`);
          await this.dispatcher.dispatchHead(run.threadId);
          break;
        case 'schedule_wake':
          if (wake !== undefined) await this.dispatcher.dispatchWake(wake.run, wake.until);
          break;
        case 'dispatch_parent':
          if (parent?.queued != null) await this.dispatcher.dispatch(parent.queued);
          break;
        case 'signal_worker':
          await this.signals.request(run.id);
          break;
        case 'cancel_children':
          await this.cancelActiveChildren(run.id);
          break;
        case 'dispatch_held':
          await this.dispatchHeld(run.id);
      }
    }
  }
}
