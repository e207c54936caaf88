import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the gate reads the event loop's delay. */
const WINDOW_MS = 500;

/**
 * A worker takes many runs at once (`RUN_WORKER_CONCURRENCY`) because a run waiting on its model costs
 * no CPU. When the process is CPU-bound, though, every run it adds slows all of them, until their lease
 * renewals and statements wait seconds for the event loop and leases lapse. The gate reads the loop's
 * delay (p99 over each half second): above `maxDelayMs` the worker takes no run beyond those it has;
 * once the loop keeps up it may take up to its concurrency again. New runs wait in the queue meanwhile,
 * where waiting costs nothing. `maxDelayMs` 0 turns the gate off.
 */
export class WorkerLoadGate {
  private readonly delay = monitorEventLoopDelay({ resolution: 10 });
  private timer: NodeJS.Timeout | null = null;
  private open = true;

  constructor(
    private readonly maxDelayMs: number,
    /** Called after each reading with the gate's state, and whether it just changed. */
    private readonly apply: (open: boolean, changed: boolean) => void,
  ) {}

  start(): void {
    if (this.maxDelayMs === 0 || this.timer !== null) return;
    this.delay.enable();
    this.timer = setInterval(() => this.read(), WINDOW_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.delay.disable();
  }

  /** One reading: the window's p99 delay decides, and the window starts again. */
  private read(): void {
    this.decide(this.delay.percentile(99) / 1e6);
    this.delay.reset();
  }

  /** The gate after a window whose p99 loop delay was `p99Ms` (public for tests). */
  decide(p99Ms: number): boolean {
    const open = p99Ms <= this.maxDelayMs;
    const changed = open !== this.open;
    this.open = open;
    this.apply(open, changed);
    return open;
  }
}
