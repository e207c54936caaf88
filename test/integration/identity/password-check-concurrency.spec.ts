import { PasswordCheckGate } from '../../../src/common/crypto/password-check-gate';
import { TestContext } from '../../support/test-app';

/** A task that takes a slot of the gate and keeps it until `release()`. */
function holdSlot(gate: PasswordCheckGate) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = gate.run(() => released, 'queue');
  return { release, done };
}

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('password checks per process', () => {
  let ctx: TestContext;
  let gate: PasswordCheckGate;

  beforeAll(async () => {
    ctx = await TestContext.start({
      PASSWORD_CHECK_CONCURRENCY: '2',
      PASSWORD_CHECK_QUEUE: '3',
      TRUST_PROXY: 'loopback',
      LOGIN_MAX_FAILURES_PER_MINUTE: '100',
    });
    gate = ctx.app.get(PasswordCheckGate);
  });
  afterAll(() => ctx.close());

  const login = (ip: string, username: string, password: string) =>
    ctx.http.post('/api/auth/token').set('X-Forwarded-For', ip).send({ username, password });

  it('runs at most N checks at once, queues a bounded number and refuses the rest with 429 and Retry-After', async () => {
    const user = await ctx.newUser();
    const held = [holdSlot(gate), holdSlot(gate)];
    expect(gate.snapshot()).toMatchObject({ active: 2, waiting: 0 });

    let answered = 0;
    const sent = Array.from({ length: 8 }, (_, i) =>
      login(`198.51.100.${i + 1}`, user.username, user.password).then((res) => {
        answered += 1;
        return res;
      }),
    );
    // Two slots held: three logins wait in the queue, the five beyond it are answered at once.
    await until(() => gate.snapshot().waiting === 3 && answered === 5);
    expect(gate.snapshot()).toMatchObject({ active: 2, waiting: 3 });
    for (const slot of held) slot.release();
    await Promise.all(held.map((slot) => slot.done));

    const responses = await Promise.all(sent);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.body).toMatchObject({ code: 'auth.too_many_requests' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    const accepted = responses.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(3);
    for (const r of accepted) expect(r.body).toMatchObject({ token_type: 'bearer', user: { id: user.id } });
    expect(gate.snapshot()).toMatchObject({ active: 0, waiting: 0, peakActive: 2 });
  });

  it('never derives more than N at once under a burst of logins from many addresses, and all succeed', async () => {
    const user = await ctx.newUser();
    gate.resetPeak();
    // Five at a time: within N + queue, so none is refused.
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => login(`192.0.2.${i + 1}`, user.username, user.password)),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(gate.snapshot().peakActive).toBeLessThanOrEqual(2);
    expect(gate.snapshot()).toMatchObject({ active: 0, waiting: 0 });
  });
});
