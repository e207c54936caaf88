/** What a companion adds to the statement of a checkpoint (see `CheckpointCompanion.render`). */
export interface CompanionSql {
  /** Its CTEs (comma-separated, names starting with `companion_`), placed before the checkpoint's. */
  ctes: string;
  /** The condition the checkpoint's rows are written under (a fence the companion's CTEs checked). */
  holds: string;
  /** The query whose rows the statement returns to `settle`. */
  rows: string;
}

/**
 * A write that goes out with a thread's next checkpoint, in the same statement: one round trip and one
 * commit for both, and the checkpoint is written only when the companion's condition holds (the run's
 * lease), so a stale worker's step leaves neither. What a step records for its run (the model's reply,
 * a tool's result) is made a companion of the checkpoint LangGraph saves right after the step.
 */
export interface CheckpointCompanion {
  /** The statement parts; `param` binds a value and returns its placeholder. */
  render(param: (value: unknown) => string): CompanionSql;
  /**
   * The statement ran and returned `rows` (none when the condition did not hold: nothing was written).
   * Throws what the checkpoint's `put` then fails with, when nothing was written.
   */
  settle(rows: unknown[]): void;
  /** Stores the write on its own, without a checkpoint (no checkpoint of the thread took it). */
  storeAlone(): Promise<void>;
}

/** Where companions wait for their thread's next checkpoint (the checkpointer's saver). */
export interface CheckpointCompanions {
  /** False when one already waits for the thread: the caller stores its write itself. */
  attach(threadId: string, companion: CheckpointCompanion): boolean;
  /** Stores the companion no checkpoint took, if any (after the thread's graph stopped). */
  storeDetached(threadId: string): Promise<void>;
}
