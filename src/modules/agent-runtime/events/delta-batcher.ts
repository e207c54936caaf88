/**
 * Collects streamed text and hands it on at most once per `windowMs` (and once at the end), so a token
 * stream becomes a handful of events, not a row per token. Flushes are serialized and awaited by `close`.
 */
export class DeltaBatcher {
  private pending = '';
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  constructor(
    private readonly windowMs: number,
    private readonly flushTo: (text: string) => Promise<void>,
  ) {}

  push(text: string): void {
    if (text === '') return;
    this.pending += text;
    if (this.windowMs === 0) return this.flush();
    this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  /** Flushes what is left; rethrows a failed flush (e.g. the lease was lost). */
  async close(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.failure !== null) throw this.failure;
  }

  /**
   * Waits for the flushes under way and returns the text not flushed yet, for the caller to store with
   * what it writes next (one statement fewer at the end of a stream); rethrows a failed flush.
   */
  async drain(): Promise<string> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.chain;
    if (this.failure !== null) throw this.failure;
    const text = this.pending;
    this.pending = '';
    return text;
  }

  private flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.chain = this.chain.then(async () => {
      if (this.failure !== null) return;
      await this.flushTo(text).catch((error: unknown) => {
        this.failure = error instanceof Error ? error : new Error(String(error));
      });
    });
  }
}
