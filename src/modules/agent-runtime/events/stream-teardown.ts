/**
 * What one stream must undo, in reverse order of setup. Once it ran, a step added later runs at once:
 * a resource acquired after the client went away (during an await) is given back right away.
 */
export class StreamTeardown {
  private readonly steps: (() => unknown)[] = [];
  private running: Promise<void> | null = null;

  get done(): boolean {
    return this.running !== null;
  }

  add(step: () => unknown): void {
    if (this.running === null) this.steps.push(step);
    else void this.running.then(() => StreamTeardown.runStep(step));
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.splice(0).reverse()) await StreamTeardown.runStep(step);
    })();
    return this.running;
  }

  private static async runStep(step: () => unknown): Promise<void> {
    try {
      await step();
    } catch {
      // A step that fails (a slot release to an unreachable Redis) must not keep the others from running.
    }
  }
}
