import { RUN_STATUSES, TERMINAL_STATUSES, type RunStatus } from './run-status.js';

/**
 * Every way a run's status changes, as data. `RunTransitions` applies them: the statements of
 * `run-sql.ts` take their from-statuses and to-statuses from here (a run in a status not listed is
 * not matched, so nothing is written), and after the commit the transition's `after` effects run in
 * order. `docs/architecture.md` draws this table (checked by `run-state-machine.spec.ts`).
 */
export interface RunTransition {
  /** The statuses the run may be in; none for the creation. */
  from: readonly RunStatus[];
  to: RunStatus;
  /** What else must hold, checked by the same statement. */
  guard: string;
  /** The run events appended in the same transaction, in order (`?`: only when it applies). */
  events: readonly string[];
  /** What else the same transaction writes. */
  writes: readonly string[];
  /** What follows the commit, in order (`AfterCommit`). */
  after: readonly AfterCommit[];
}

/** The effects of a committed transition. */
export type AfterCommit =
  /** Its events (and the parent's) go to live streams. */
  | 'publish'
  /** The run, queued at the head of its thread, is enqueued. */
  | 'dispatch'
  /** The thread's head, if it is queued, is enqueued (the run left the thread or was handed back). */
  | 'dispatch_thread_head'
  /** A wake-up job is scheduled at the await's deadline. */
  | 'schedule_wake'
  /** A parent queued again by this ending is enqueued. */
  | 'dispatch_parent'
  /** The worker holding the run is told over Redis to stop. */
  | 'signal_worker'
  /** The run's active subagent runs are cancelled, and theirs. */
  | 'cancel_children'
  /** The run left flight: its user's held runs that the free slots let go are enqueued. */
  | 'dispatch_held';

const TERMINAL_EVENTS = ['error?', 'status', 'done'] as const;
const TELL_PARENT = 'the parent: a subagent event; queued again when nothing is left to await';
const ENDED: readonly AfterCommit[] = [
  'publish',
  'dispatch_parent',
  'dispatch_thread_head',
  'cancel_children',
];
/** A run that ended while in flight: its slot is free too. */
const ENDED_IN_FLIGHT: readonly AfterCommit[] = [...ENDED, 'dispatch_held'];

export const RUN_STATE_MACHINE = {
  create: {
    from: [],
    to: 'queued',
    guard: "under the thread's lock: no run waits for an answer; the user's cap",
    events: ['status'],
    writes: ['the user message', "for a subagent: the parent's subagent event (under its lease)"],
    after: ['publish', 'dispatch'],
  },
  claim: {
    from: ['queued'],
    to: 'running',
    guard: 'heads its thread; a new lease',
    events: ['status'],
    writes: [],
    after: ['publish'],
  },
  park_for_question: {
    from: ['running'],
    to: 'waiting',
    guard: 'the lease',
    events: ['waiting', 'status'],
    writes: ['the open waiting point', "for a subagent: the parent's subagent event (waiting)"],
    after: ['publish', 'dispatch_held'],
  },
  park_awaiting_children: {
    from: ['running'],
    to: 'waiting',
    guard: 'the lease',
    events: ['status'],
    writes: ['the awaited runs and deadline'],
    after: ['publish', 'schedule_wake', 'dispatch_held'],
  },
  wake: {
    from: ['waiting'],
    to: 'queued',
    guard: 'awaiting children: all ended, or the deadline passed',
    events: ['status'],
    writes: [],
    after: ['publish', 'dispatch'],
  },
  requeue_answered: {
    from: ['waiting'],
    to: 'queued',
    guard: 'its open question answered (under the run lock)',
    events: ['status'],
    writes: ['the answers'],
    after: ['publish', 'dispatch'],
  },
  finish: {
    from: ['running', 'cancel_requested'],
    to: 'completed',
    guard: 'the lease',
    events: TERMINAL_EVENTS,
    writes: [TELL_PARENT],
    after: ENDED_IN_FLIGHT,
  },
  fail: {
    from: ['running', 'cancel_requested'],
    to: 'failed',
    guard: 'the lease',
    events: TERMINAL_EVENTS,
    writes: [TELL_PARENT],
    after: ENDED_IN_FLIGHT,
  },
  finish_cancelled: {
    from: ['running', 'cancel_requested'],
    to: 'cancelled',
    guard: 'the lease',
    events: TERMINAL_EVENTS,
    writes: [TELL_PARENT],
    after: ENDED_IN_FLIGHT,
  },
  release: {
    from: ['running'],
    to: 'queued',
    guard: 'the lease (shutdown, dependency outage)',
    events: ['status'],
    writes: [],
    after: ['publish', 'dispatch_thread_head', 'dispatch_held'],
  },
  release_cancelled: {
    from: ['cancel_requested'],
    to: 'cancelled',
    guard: 'the lease (shutdown, dependency outage)',
    events: TERMINAL_EVENTS,
    writes: [TELL_PARENT],
    after: ENDED_IN_FLIGHT,
  },
  recover: {
    from: ['running'],
    to: 'queued',
    guard: 'the lease expired; claims left',
    events: ['status'],
    writes: [],
    after: ['publish', 'dispatch_thread_head', 'dispatch_held'],
  },
  recover_exhausted: {
    from: ['running'],
    to: 'failed',
    guard: 'the lease expired; no claims left',
    events: TERMINAL_EVENTS,
    writes: [TELL_PARENT],
    after: ENDED_IN_FLIGHT,
  },
  recover_cancelled: {
    from: ['cancel_requested'],
    to: 'cancelled',
    guard: 'the lease expired',
    events: TERMINAL_EVENTS,
    writes: [TELL_PARENT],
    after: ENDED_IN_FLIGHT,
  },
  cancel: {
    from: ['queued', 'waiting'],
    to: 'cancelled',
    guard: 'the owner (or a parent cancelling its children)',
    events: TERMINAL_EVENTS,
    writes: ['the open waiting point withdrawn', TELL_PARENT],
    after: ENDED,
  },
  request_cancel: {
    from: ['running'],
    to: 'cancel_requested',
    guard: 'the owner (or a parent cancelling its children)',
    events: ['status'],
    writes: [],
    after: ['publish', 'signal_worker', 'cancel_children'],
  },
} as const satisfies Record<string, RunTransition>;

export type TransitionName = keyof typeof RUN_STATE_MACHINE;

export const TRANSITION_NAMES = Object.keys(RUN_STATE_MACHINE) as TransitionName[];

const quoted = (statuses: readonly RunStatus[]) => `(${statuses.map((status) => `'${status}'`).join(', ')})`;

/** The from-statuses of the transitions, as an SQL list (what their statement matches). */
export function fromList(...names: TransitionName[]): string {
  return quoted([...new Set(names.flatMap((name) => RUN_STATE_MACHINE[name].from))]);
}

/** The to-status of a transition, as an SQL literal. */
export function toLiteral(name: TransitionName): string {
  return `'${RUN_STATE_MACHINE[name].to}'`;
}

/** Which of `names` (applied by one statement) moved the run into `to`. */
export function transitionInto(names: readonly TransitionName[], to: RunStatus): TransitionName {
  const found = names.find((name) => RUN_STATE_MACHINE[name].to === to);
  if (found === undefined) throw new Error(`none of ${names.join(', ')} leads to ${to}`);
  return found;
}

/** The transitions that end a run (into a terminal status). */
export function endingTransitions(): TransitionName[] {
  return TRANSITION_NAMES.filter((name) => TERMINAL_STATUSES.includes(RUN_STATE_MACHINE[name].to));
}

/** The table as a Mermaid state diagram (what `docs/architecture.md` shows). */
export function stateDiagram(): string {
  const lines = ['stateDiagram-v2'];
  for (const name of TRANSITION_NAMES) {
    const { from, to } = RUN_STATE_MACHINE[name];
    for (const status of from.length === 0 ? ['[*]'] : from) lines.push(`  ${status} --> ${to}: ${name}`);
  }
  for (const status of RUN_STATUSES)
    if (
      !TRANSITION_NAMES.some((name) => (RUN_STATE_MACHINE[name].from as readonly string[]).includes(status))
    )
      lines.push(`  ${status} --> [*]`);
  return lines.join('\n');
}
