import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunEventCache } from '../src/stream/run-event-cache';
import type { RunEvent } from '../src/stream/run-stream';

const KEY = 'yuxi.run-events.run-1';

function event(seq: number, payload: Record<string, unknown> = {}): RunEvent {
  return { run_id: 'run-1', seq, type: 'message_delta', payload, created_at: '2025-01-01T00:00:00.000Z' };
}

function stored(): unknown {
  const text = sessionStorage.getItem(KEY);
  return text === null ? null : (JSON.parse(text) as unknown);
}

beforeEach(() => {
  sessionStorage.clear();
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('RunEventCache', () => {
  it('drops the kept events of every run at once, and nothing else', () => {
    for (const run of ['run-1', 'run-2']) {
      const cache = new RunEventCache(run);
      cache.add({ ...event(1), run_id: run });
      cache.flush();
    }
    sessionStorage.setItem('yuxi.session', 'kept');
    RunEventCache.clearAll();
    expect(Object.keys(sessionStorage)).toEqual(['yuxi.session']);
    expect(new RunEventCache('run-2').stored).toEqual([]);
  });

  it('starts empty for a run it has never seen', () => {
    expect(new RunEventCache('run-1').stored).toEqual([]);
  });

  it('writes added events in one batch, 300 ms after the first', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const cache = new RunEventCache('run-1');
    cache.add(event(1));
    vi.advanceTimersByTime(200);
    cache.add(event(2));
    expect(stored()).toBeNull();
    vi.advanceTimersByTime(99);
    expect(stored()).toBeNull();
    vi.advanceTimersByTime(1);
    expect(stored()).toEqual([event(1), event(2)]);
    expect(setItem).toHaveBeenCalledTimes(1);
    setItem.mockRestore();
  });

  it('writes at once on flush, and not again when the batch timer would have fired', () => {
    const cache = new RunEventCache('run-1');
    cache.add(event(1));
    cache.flush();
    expect(stored()).toEqual([event(1)]);
    sessionStorage.removeItem(KEY);
    vi.advanceTimersByTime(1000);
    expect(stored()).toBeNull();
  });

  it('gives a new cache of the same run the events kept, so a reload can resume after them', () => {
    const first = new RunEventCache('run-1');
    [1, 2, 3].forEach((seq) => first.add(event(seq)));
    first.flush();
    expect(new RunEventCache('run-1').stored).toEqual([event(1), event(2), event(3)]);
    expect(new RunEventCache('run-2').stored).toEqual([]);
  });

  it('keeps nothing of a stored list that does not start at seq 1 or has a gap', () => {
    sessionStorage.setItem(KEY, JSON.stringify([event(2), event(3)]));
    expect(new RunEventCache('run-1').stored).toEqual([]);
    sessionStorage.setItem(KEY, JSON.stringify([event(1), event(3)]));
    expect(new RunEventCache('run-1').stored).toEqual([]);
  });

  it.each([
    ['broken JSON', '[{"seq":1'],
    ['an object', '{"seq":1}'],
    ['a list with null', '[null]'],
  ])('keeps nothing of %s in storage', (_name, text) => {
    sessionStorage.setItem(KEY, text);
    expect(new RunEventCache('run-1').stored).toEqual([]);
  });

  it('clears what it keeps when the run ended, and writes nothing afterwards', () => {
    const cache = new RunEventCache('run-1');
    cache.add(event(1));
    cache.flush();
    cache.add(event(2));
    cache.clear();
    expect(stored()).toBeNull();
    expect(cache.stored).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(stored()).toBeNull();
  });

  it('keeps nothing for a run too large to keep', () => {
    const cache = new RunEventCache('run-1');
    cache.add(event(1));
    cache.flush();
    cache.add(event(2, { delta: 'x'.repeat(2_000_001) }));
    cache.flush();
    expect(stored()).toBeNull();
  });

  it('keeps nothing when the storage refuses the write', () => {
    const storage = {
      items: new Map<string, string>([[KEY, JSON.stringify([event(1)])]]),
      getItem(key: string) {
        return this.items.get(key) ?? null;
      },
      setItem() {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem(key: string) {
        this.items.delete(key);
      },
    };
    const cache = new RunEventCache('run-1', storage as unknown as Storage);
    expect(cache.stored).toEqual([event(1)]);
    cache.add(event(2));
    expect(() => cache.flush()).not.toThrow();
    expect(storage.items.has(KEY)).toBe(false);
  });
});
