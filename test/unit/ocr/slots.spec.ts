import { Slots } from '../../../src/modules/ocr/worker/slots';

describe('Slots', () => {
  it('lets `size` holders in at once and the next waiter in when one leaves', async () => {
    const slots = new Slots(2);
    const signal = new AbortController().signal;
    const first = await slots.acquire(signal);
    await slots.acquire(signal);
    let thirdIn = false;
    const third = slots.acquire(signal).then((release) => {
      thirdIn = true;
      return release;
    });
    await Promise.resolve();
    expect({ inUse: slots.inUse, queued: slots.queued, thirdIn }).toEqual({
      inUse: 2,
      queued: 1,
      thirdIn: false,
    });
    first();
    first(); // a second release of the same slot frees nothing more
    await third;
    expect({ inUse: slots.inUse, queued: slots.queued, thirdIn }).toEqual({
      inUse: 2,
      queued: 0,
      thirdIn: true,
    });
  });

  it('drops a waiter whose signal aborts, rejecting with the abort reason', async () => {
    const slots = new Slots(1);
    await slots.acquire(new AbortController().signal);
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('run cancelled'));
    await expect(waiting).rejects.toThrow('run cancelled');
    expect(slots.queued).toBe(0);
    await expect(slots.acquire(controller.signal)).rejects.toThrow('run cancelled');
  });
});
