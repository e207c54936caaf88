/**
 * Teardown steps registered as resources are created (servers, databases, temp dirs, Redis keys) and
 * run newest first, once, whether the run succeeds, fails or is interrupted.
 */
type Step = { label: string; run: () => Promise<void> };

const steps: Step[] = [];
let running: Promise<void> | null = null;
let interrupted = false;

/** True once SIGINT/SIGTERM arrived (the failures that follow are the interruption's, not the bench's). */
export function wasInterrupted(): boolean {
  return interrupted;
}

/** Registers a step; the returned function removes it (for resources already released normally). */
export function onCleanup(label: string, run: () => Promise<void>): () => void {
  const step = { label, run };
  steps.push(step);
  return () => {
    const index = steps.indexOf(step);
    if (index >= 0) steps.splice(index, 1);
  };
}

export function runCleanup(): Promise<void> {
  running ??= (async () => {
    while (steps.length > 0) {
      const step = steps.pop()!;
      try {
        await step.run();
      } catch (error) {
        process.stderr.write(
          `cleanup "${step.label}" failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  })();
  return running;
}

/** Ctrl-C or a kill still drops the databases and stops the servers. */
export function cleanupOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      process.stderr.write(`\n${signal}: cleaning up…\n`);
      void runCleanup().finally(() => process.exit(130));
    });
  }
}
