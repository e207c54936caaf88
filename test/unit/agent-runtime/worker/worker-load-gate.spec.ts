import { WorkerLoadGate } from '../../../../src/modules/agent-runtime/worker/worker-load-gate';

describe('WorkerLoadGate', () => {
  it('closes above the delay bound, opens again below it, and says when it changed', () => {
    const calls: [boolean, boolean][] = [];
    const gate = new WorkerLoadGate(200, (open, changed) => calls.push([open, changed]));
    expect(gate.decide(12)).toBe(true);
    expect(gate.decide(480)).toBe(false);
    expect(gate.decide(350)).toBe(false);
    expect(gate.decide(200)).toBe(true);
    expect(calls).toEqual([
      [true, false],
      [false, true],
      [false, false],
      [true, true],
    ]);
  });

  it('reads the event loop: a blocked loop closes it, an idle one opens it', async () => {
    const states: boolean[] = [];
    const gate = new WorkerLoadGate(50, (open) => states.push(open));
    gate.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)); // the monitor's first tick
      const blockUntil = Date.now() + 400;
      while (Date.now() < blockUntil); // the loop is blocked for 400 ms
      await until(() => states.includes(false));
      await until(() => states.at(-1) === true);
    } finally {
      gate.stop();
    }
  });

  it('does nothing when turned off (0)', async () => {
    const states: boolean[] = [];
    const gate = new WorkerLoadGate(0, (open) => states.push(open));
    gate.start();
    const blockUntil = Date.now() + 300;
    while (Date.now() < blockUntil);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    gate.stop();
    expect(states).toEqual([]);
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
