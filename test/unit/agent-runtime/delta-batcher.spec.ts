import { DeltaBatcher } from '../../../src/modules/agent-runtime/events/delta-batcher';

/** A flush target that records what it got and can be made slow or failing. */
function target() {
  const flushed: string[] = [];
  let active = 0;
  let maxActive = 0;
  const gates: (() => void)[] = [];
  let slow = false;
  let failOn: string | null = null;
  const flushTo = async (text: string) => {
    active++;
    maxActive = Math.max(maxActive, active);
    try {
      if (slow) await new Promise<void>((resolve) => gates.push(resolve));
      if (text === failOn) throw new Error('lease lost');
      flushed.push(text);
    } finally {
      active--;
    }
  };
  return {
    flushed,
    flushTo,
    gates,
    get maxActive() {
      return maxActive;
    },
    slowDown: () => (slow = true),
    failWhen: (text: string) => (failOn = text),
  };
}

describe('DeltaBatcher', () => {
  afterEach(() => jest.useRealTimers());

  it('joins everything pushed within one window into one flush', async () => {
    jest.useFakeTimers();
    const t = target();
    const batcher = new DeltaBatcher(100, t.flushTo);
    for (const piece of ['He', 'll', 'o ', 'wo', 'rld']) batcher.push(piece);
    await jest.advanceTimersByTimeAsync(99);
    expect(t.flushed).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(t.flushed).toEqual(['Hello world']);

    batcher.push('!');
    batcher.push('?');
    await jest.advanceTimersByTimeAsync(100);
    expect(t.flushed).toEqual(['Hello world', '!?']);
    await batcher.close();
    expect(t.flushed).toEqual(['Hello world', '!?']);
  });

  it('starts the window at the first push, not at each push (a steady stream still flushes)', async () => {
    jest.useFakeTimers();
    const t = target();
    const batcher = new DeltaBatcher(100, t.flushTo);
    for (let i = 0; i < 10; i++) {
      batcher.push(String(i));
      await jest.advanceTimersByTimeAsync(30);
    }
    // Pieces at 0, 30, …, 270 ms: windows opened at 0 and 120 ms have closed, the one opened at 240 ms has not.
    expect(t.flushed).toEqual(['0123', '4567']);
    await batcher.close();
    expect(t.flushed).toEqual(['0123', '4567', '89']);
  });

  it('flushes what is left on close without waiting for the window', async () => {
    const t = target();
    const batcher = new DeltaBatcher(60_000, t.flushTo);
    batcher.push('tail');
    const started = Date.now();
    await batcher.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(t.flushed).toEqual(['tail']);
  });

  it('ignores empty pieces and flushes nothing when nothing was pushed', async () => {
    jest.useFakeTimers();
    const t = target();
    const batcher = new DeltaBatcher(50, t.flushTo);
    batcher.push('');
    await jest.advanceTimersByTimeAsync(200);
    await batcher.close();
    expect(t.flushed).toEqual([]);
  });

  it('with a zero window, flushes each piece in order', async () => {
    const t = target();
    const batcher = new DeltaBatcher(0, t.flushTo);
    for (const piece of ['a', 'b', '', 'c']) batcher.push(piece);
    await batcher.close();
    expect(t.flushed).toEqual(['a', 'b', 'c']);
  });

  it('serializes flushes: a slow flush is never overtaken, and close waits for all of them', async () => {
    const t = target();
    t.slowDown();
    const batcher = new DeltaBatcher(0, t.flushTo);
    batcher.push('first');
    batcher.push('second');
    batcher.push('third');
    let closed = false;
    const closing = batcher.close().then(() => (closed = true));
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toBe(false);
      expect(t.gates).toHaveLength(1);
      t.gates.shift()!();
    }
    await closing;
    expect(t.flushed).toEqual(['first', 'second', 'third']);
    expect(t.maxActive).toBe(1);
  });

  it('rethrows a failed flush on close and sends nothing after it', async () => {
    const t = target();
    t.failWhen('b');
    const batcher = new DeltaBatcher(0, t.flushTo);
    batcher.push('a');
    batcher.push('b');
    batcher.push('c');
    await expect(batcher.close()).rejects.toThrow('lease lost');
    expect(t.flushed).toEqual(['a']);
  });

  it('rethrows a failure that happened in a timer flush (it is not lost)', async () => {
    jest.useFakeTimers();
    const t = target();
    t.failWhen('xy');
    const batcher = new DeltaBatcher(10, t.flushTo);
    batcher.push('x');
    batcher.push('y');
    await jest.advanceTimersByTimeAsync(10);
    batcher.push('z');
    const closing = batcher.close();
    await expect(closing).rejects.toThrow('lease lost');
    expect(t.flushed).toEqual([]);
  });

  it('drain waits for the flushes under way and hands back the rest unflushed, once', async () => {
    jest.useFakeTimers();
    const t = target();
    const batcher = new DeltaBatcher(100, t.flushTo);
    t.slowDown();
    batcher.push('Hello');
    await jest.advanceTimersByTimeAsync(100);
    batcher.push(' world');
    let drained: string | null = null;
    const draining = batcher.drain().then((text) => (drained = text));
    await jest.advanceTimersByTimeAsync(500);
    expect(drained).toBeNull(); // the first flush is still under way
    t.gates.shift()!();
    await draining;
    expect(drained).toBe(' world');
    expect(t.flushed).toEqual(['Hello']);
    await jest.advanceTimersByTimeAsync(500);
    expect(t.flushed).toEqual(['Hello']); // its window timer was cancelled
    expect(await batcher.drain()).toBe('');
  });

  it('drain rethrows a failed flush', async () => {
    const t = target();
    const batcher = new DeltaBatcher(0, t.flushTo);
    t.failWhen('x');
    batcher.push('x');
    await expect(batcher.drain()).rejects.toThrow('lease lost');
  });
});
