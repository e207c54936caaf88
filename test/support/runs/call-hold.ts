/**
 * Holds one call of a spied method at a point the test chooses: `entered` resolves when the call got
 * there, and the call goes on once `release()` is called.
 */
export class CallHold {
  readonly entered: Promise<void>;
  private markEntered: () => void = () => undefined;
  private readonly released: Promise<void>;
  private unblock: () => void = () => undefined;

  constructor() {
    this.entered = new Promise((resolve) => (this.markEntered = resolve));
    this.released = new Promise((resolve) => (this.unblock = resolve));
  }

  /** Called by the spied method: waits until the test releases it. */
  async wait(): Promise<void> {
    this.markEntered();
    await this.released;
  }

  release(): void {
    this.unblock();
  }
}
