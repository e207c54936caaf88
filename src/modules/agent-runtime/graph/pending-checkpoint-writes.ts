/** One `checkpoint_writes` row of a task, as the saver stores it. */
export interface WriteRow {
  taskId: string;
  idx: number;
  channel: string;
  type: string;
  blob: Buffer | null;
}

/** The rows of one checkpoint's writes waiting to be stored, split by how each meets a stored row. */
export interface MergedWrites {
  /** Stored unless a row with the same task and index exists (the library's INSERT … DO NOTHING). */
  inserts: WriteRow[];
  /** Replace a stored row with the same task and index (the library's upsert of special channels). */
  upserts: WriteRow[];
}

/** The checkpoint a batch of writes belongs to. */
export interface WritesTarget {
  threadId: string;
  namespace: string;
  checkpointId: string;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

interface Pending {
  target: WritesTarget;
  rows: Map<string, { row: WriteRow; upsert: boolean }>;
  waiters: Waiter[];
  timer: NodeJS.Immediate | null;
}

/** The checkpoints of one thread and namespace being stored, and the writes waiting for them to end. */
interface PutsInFlight {
  count: number;
  held: Set<string>;
}

/**
 * The task writes of checkpoints whose rows are not stored yet, so that they can go out in the
 * statement of the checkpoint that follows (LangGraph saves a step's task writes, then the step's
 * checkpoint). Writes no checkpoint claims by the next turn of the event loop (an interrupt or an error
 * ends the step without one) are stored alone; while a checkpoint of the same thread is being stored,
 * that turn is counted from its end (LangGraph saves a thread's checkpoints one after the other, so the
 * next one cannot start before).
 *
 * Several batches for one checkpoint merge as if stored one after the other: an upsert replaces what
 * came before it, an insert keeps what came before it.
 */
export class PendingCheckpointWrites {
  private readonly pending = new Map<string, Pending>();
  private readonly puts = new Map<string, PutsInFlight>();

  constructor(private readonly storeAlone: (target: WritesTarget, writes: MergedWrites) => Promise<void>) {}

  /** Resolves once the rows are stored, alone or with the next checkpoint; rejects if that failed. */
  add(target: WritesTarget, rows: readonly WriteRow[], upsert: boolean): Promise<void> {
    const key = keyOf(target);
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { target, rows: new Map(), waiters: [], timer: null };
      this.pending.set(key, entry);
      const puts = this.puts.get(threadKeyOf(target));
      if (puts === undefined) this.arm(entry);
      else puts.held.add(key);
    }
    for (const row of rows) {
      const id = `${row.taskId}\u0000${row.idx}`;
      const earlier = entry.rows.get(id);
      if (upsert) entry.rows.set(id, { row, upsert: true });
      else if (earlier === undefined) entry.rows.set(id, { row, upsert: false });
    }
    const { waiters } = entry;
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  /**
   * Hands the waiting rows of `target` to the caller's statement: `settle` tells their waiters how it
   * went. Null when none wait.
   */
  take(target: WritesTarget): { writes: MergedWrites; settle: (error?: unknown) => void } | null {
    const key = keyOf(target);
    const entry = this.pending.get(key);
    if (entry === undefined) return null;
    this.pending.delete(key);
    if (entry.timer !== null) clearImmediate(entry.timer);
    this.puts.get(threadKeyOf(target))?.held.delete(key);
    return { writes: split(entry), settle: (error) => settle(entry.waiters, error) };
  }

  /** Marks a checkpoint of `target`'s thread and namespace as being stored until `end` is called. */
  beginPut(target: Pick<WritesTarget, 'threadId' | 'namespace'>): () => void {
    const threadKey = threadKeyOf(target);
    let puts = this.puts.get(threadKey);
    if (puts === undefined) {
      puts = { count: 0, held: new Set() };
      this.puts.set(threadKey, puts);
    }
    puts.count += 1;
    const inFlight = puts;
    return () => {
      inFlight.count -= 1;
      if (inFlight.count > 0) return;
      this.puts.delete(threadKey);
      for (const key of inFlight.held) {
        const entry = this.pending.get(key);
        if (entry !== undefined) this.arm(entry);
      }
    };
  }

  private arm(entry: Pending): void {
    entry.timer = setImmediate(() => void this.flushAlone(entry.target));
  }

  private async flushAlone(target: WritesTarget): Promise<void> {
    const taken = this.take(target);
    if (taken === null) return;
    try {
      await this.storeAlone(target, taken.writes);
      taken.settle();
    } catch (error) {
      taken.settle(error);
    }
  }
}

function split(entry: Pending): MergedWrites {
  const writes: MergedWrites = { inserts: [], upserts: [] };
  for (const { row, upsert } of entry.rows.values()) (upsert ? writes.upserts : writes.inserts).push(row);
  return writes;
}

function settle(waiters: readonly Waiter[], error?: unknown): void {
  for (const waiter of waiters) {
    if (error === undefined) waiter.resolve();
    else waiter.reject(error);
  }
}

const threadKeyOf = ({ threadId, namespace }: Pick<WritesTarget, 'threadId' | 'namespace'>) =>
  `${threadId}\u0000${namespace}`;
const keyOf = (target: WritesTarget) => `${threadKeyOf(target)}\u0000${target.checkpointId}`;
