import { EventEmitter } from 'node:events';
import { readOnce, withReadOnceScope } from '../../../src/common/read-once/index.js';

function counter() {
  let calls = 0;
  return {
    read: () => Promise.resolve({ call: ++calls }),
    get calls() {
      return calls;
    },
  };
}

describe('read-once scope', () => {
  it('shares one read of a key inside the scope, concurrent or later, and reads each key', async () => {
    const skills = counter();
    const settings = counter();
    const [first, second, third, other] = await withReadOnceScope(async () => {
      const concurrent = await Promise.all([
        readOnce('skills', skills.read),
        readOnce('skills', skills.read),
      ]);
      const later = await readOnce('skills', skills.read);
      return [...concurrent, later, await readOnce('settings', settings.read)];
    });
    expect(skills.calls).toBe(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(settings.calls).toBe(1);
    expect(other).toEqual({ call: 1 });
  });

  it('reads every time outside a scope, and in each scope anew', async () => {
    const skills = counter();
    await readOnce('skills', skills.read);
    await readOnce('skills', skills.read);
    await withReadOnceScope(() => readOnce('skills', skills.read));
    await withReadOnceScope(() => readOnce('skills', skills.read));
    expect(skills.calls).toBe(4);
  });

  it('does not share with work that outlives the scope (a handler registered inside it)', async () => {
    const skills = counter();
    const events = new EventEmitter();
    const later: Promise<unknown>[] = [];
    await withReadOnceScope(async () => {
      await readOnce('skills', skills.read);
      // A callback made inside the scope keeps its async context after the scope ended.
      events.on('call', () => later.push(readOnce('skills', skills.read)));
      setImmediate(() => later.push(readOnce('skills', skills.read)));
    });
    events.emit('call');
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all(later);
    expect(later).toHaveLength(2);
    expect(skills.calls).toBe(3);
  });

  it('shares a failed read inside the scope and ends the scope with the work', async () => {
    let calls = 0;
    const failing = () => Promise.reject(new Error(`outage ${++calls}`));
    await expect(
      withReadOnceScope(async () => {
        await expect(readOnce('settings', failing)).rejects.toThrow('outage 1');
        return readOnce('settings', failing);
      }),
    ).rejects.toThrow('outage 1');
    await expect(readOnce('settings', failing)).rejects.toThrow('outage 2');
  });
});
