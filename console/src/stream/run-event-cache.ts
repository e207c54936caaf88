import type { RunEvent } from './run-stream';

const PREFIX = 'yuxi.run-events.';
const MAX_CHARS = 2_000_000;

/**
 * The events of the run this tab follows, kept in session storage so that a reload shows them at once
 * and resumes the stream after the last one (`Last-Event-ID`) instead of replaying the whole run.
 * Writes are batched; a run too large to keep is simply replayed from its start after a reload.
 */
export class RunEventCache {
  private events: RunEvent[];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly runId: string,
    private readonly storage: Storage = sessionStorage,
  ) {
    this.events = RunEventCache.read(runId, storage);
  }

  get stored(): readonly RunEvent[] {
    return this.events;
  }

  add(event: RunEvent): void {
    this.events.push(event);
    this.timer ??= setTimeout(() => this.flush(), 300);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.events.length === 0) return this.storage.removeItem(PREFIX + this.runId);
    const text = JSON.stringify(this.events);
    try {
      if (text.length > MAX_CHARS) this.storage.removeItem(PREFIX + this.runId);
      else this.storage.setItem(PREFIX + this.runId, text);
    } catch {
      this.storage.removeItem(PREFIX + this.runId);
    }
  }

  /** The run ended: nothing to resume any more. */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.events = [];
    this.storage.removeItem(PREFIX + this.runId);
  }

  /** Drops every run's kept events (at sign-out: they belong to the user who leaves). */
  static clearAll(storage: Storage = sessionStorage): void {
    const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
    for (const key of keys) if (key?.startsWith(PREFIX)) storage.removeItem(key);
  }

  private static read(runId: string, storage: Storage): RunEvent[] {
    try {
      const parsed = JSON.parse(storage.getItem(PREFIX + runId) ?? '[]') as unknown;
      if (!Array.isArray(parsed)) return [];
      // Only a gapless prefix from seq 1 can be resumed after its last seq.
      const events = parsed as RunEvent[];
      return events.every((event, index) => event?.seq === index + 1) ? events : [];
    } catch {
      return [];
    }
  }
}
