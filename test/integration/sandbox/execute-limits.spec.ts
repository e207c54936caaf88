import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { execute } from '../../support/sandbox/execute-call';
import { expectSandboxStillWorks, hostProcessesWith, workdirOf } from '../../support/sandbox/sandbox-probes';
import { TestContext, type TestUser } from '../../support/test-app';

const OUTPUT_LIMIT = 256 * 1024;

/** A `sleep` whose command line no other process on the host has. */
const uniqueSleep = () => `100.${Math.floor(Math.random() * 1e9)}`;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

const hostProcessCount = () => readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length;

/** Runs `work` while counting the host's processes: how many more there were at most than before. */
async function peakExtraProcesses<T>(work: () => Promise<T>): Promise<{ value: T; extra: number }> {
  const before = hostProcessCount();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, hostProcessCount())), 50);
  try {
    return { value: await work(), extra: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

const memAvailableBytes = () =>
  Number(/^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) * 1024;

/** Runs `work` while watching the host's available memory: the largest drop from before. */
async function peakMemoryDrop<T>(work: () => Promise<T>): Promise<{ value: T; drop: number }> {
  const before = memAvailableBytes();
  let lowest = before;
  const sampler = setInterval(() => (lowest = Math.min(lowest, memAvailableBytes())), 50);
  try {
    return { value: await work(), drop: before - lowest };
  } finally {
    clearInterval(sampler);
  }
}

/** Polls until no host process has `token` on its command line (or the time is up): what is left. */
async function leftoversAfter(token: string, ms: number): Promise<string[]> {
  const until = Date.now() + ms;
  let left = hostProcessesWith(token);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((done) => setTimeout(done, 100));
    left = hostProcessesWith(token);
  }
  return left;
}

describe('execute: limits end a runaway command, not the host', () => {
  let ctx: TestContext;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    user = await ctx.newUser();
    await mkdir(workdirOf(ctx, user), { recursive: true });
  });
  afterAll(() => ctx.close());

  it('ends a fork bomb (shell) and leaves no process behind', async () => {
    const duration = uniqueSleep();
    const {
      value: { value, ms },
      extra,
    } = await peakExtraProcesses(() =>
      timed(() =>
        execute(ctx, user, { command: `while true; do sh -c 'sleep ${duration}' & done`, timeout_s: 5 }),
      ),
    );
    // SANDBOX_MAX_PROCESSES (128) for the sandbox, with room for what else runs on the machine.
    expect(extra).toBeLessThan(128 + 100);
    expect(value.isError).toBe(false);
    expect(value.body.exit_code === null || value.body.exit_code !== 0).toBe(true);
    expect(ms).toBeLessThan(15_000);
    expect(value.body.timed_out === true || /Cannot fork/.test(value.body.stderr)).toBe(true);
    expect(await leftoversAfter(duration, 3_000)).toEqual([]);
    await expectSandboxStillWorks(ctx, user);
  }, 40_000);

  it('ends a fork bomb (python os.fork) and leaves no process behind', async () => {
    const tag = `forkbomb-${randomBytes(6).toString('hex')}`;
    const {
      value: { value, ms },
      extra,
    } = await peakExtraProcesses(() =>
      timed(() =>
        execute(ctx, user, {
          command: `python3 -c 'import os, time
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)' ${tag}`,
          timeout_s: 5,
        }),
      ),
    );
    expect(extra).toBeLessThan(128 + 100);
    expect(value.isError).toBe(false);
    expect(value.body.exit_code === null || value.body.exit_code !== 0).toBe(true);
    expect(ms).toBeLessThan(15_000);
    expect(await leftoversAfter(tag, 3_000)).toEqual([]);
    await expectSandboxStillWorks(ctx, user);
  }, 40_000);

  it('makes a 4 GB allocation fail inside the sandbox', async () => {
    const { value, ms } = await timed(() =>
      execute(ctx, user, {
        command:
          'python3 -c "b = bytearray(4 * 1024**3); print(\'allocated\', len(b))"; ' +
          'python3 -c "\nchunks = []\nfor i in range(40):\n    chunks.append(bytearray(100 * 1024**2))\nprint(\'allocated\', len(chunks))"',
        timeout_s: 30,
      }),
    );
    expect(value.isError).toBe(false);
    expect(value.body.stdout).not.toContain('allocated');
    expect(value.body.stderr).toContain('MemoryError');
    expect(value.body.exit_code === null || value.body.exit_code !== 0).toBe(true);
    expect(ms).toBeLessThan(25_000);
    await expectSandboxStillWorks(ctx, user);
  }, 40_000);

  it('bounds memory for the whole sandbox, not only per process', async () => {
    const tag = `memhog-${randomBytes(6).toString('hex')}`;
    // Four processes each filling 700 MB (under the 1 GB per-process address-space limit).
    const hog = `python3 -c "s = b'x' * (700 * 1024**2); import time; time.sleep(3); print('held')" ${tag}`;
    const {
      value: { isError, body },
      drop,
    } = await peakMemoryDrop(() =>
      execute(ctx, user, { command: `for i in 1 2 3 4; do ${hog} & done; wait`, timeout_s: 30 }),
    );
    expect(isError).toBe(false);
    // SANDBOX_MEMORY_MB (1024) for the sandbox, with room for what else runs on the machine.
    expect(drop).toBeLessThan(1.6 * 1024 ** 3);
    expect((body.stdout as string).split('held').length - 1).toBeLessThan(4);
    expect(await leftoversAfter(tag, 2_000)).toEqual([]);
    await expectSandboxStillWorks(ctx, user);
  }, 40_000);

  it('bounds the command as a whole: as root its processes are in the sandbox’s own pids and memory cgroups', async () => {
    const duration = `5.${Math.floor(Math.random() * 1e9)}`;
    const call = execute(ctx, user, { command: `sleep ${duration}`, timeout_s: 10 });
    let cgroups: string[] = [];
    for (let attempt = 0; attempt < 40 && cgroups.length === 0; attempt++) {
      await new Promise((done) => setTimeout(done, 100));
      cgroups = hostProcessesWith(`sleep ${duration}`)
        .filter((line) => line.includes(`: sleep ${duration}`))
        .map((line) => readFileSync(`/proc/${Number(line.split(':')[0])}/cgroup`, 'utf8'));
    }
    await call;
    expect(process.getuid!()).toBe(0);
    expect(cgroups.length).toBeGreaterThan(0);
    for (const membership of cgroups) {
      expect(membership).toMatch(/:pids:\/yuxi-sandbox\/[0-9a-f-]{36}\n/);
      expect(membership).toMatch(/:memory:\/yuxi-sandbox\/[0-9a-f-]{36}\n/);
    }
    await expectSandboxStillWorks(ctx, user);
  });

  it('times out an infinite loop: timed_out, no exit code, within a few seconds', async () => {
    const { value, ms } = await timed(() =>
      execute(ctx, user, { command: 'while :; do :; done', timeout_s: 2 }),
    );
    expect(value.isError).toBe(false);
    expect(value.body).toMatchObject({ timed_out: true, exit_code: null });
    expect(ms).toBeGreaterThanOrEqual(1_900);
    expect(ms).toBeLessThan(5_000);
    await expectSandboxStillWorks(ctx, user);
  });

  it('cuts 100 MB of stdout at the output limit, promptly', async () => {
    const { value, ms } = await timed(() =>
      execute(ctx, user, { command: "head -c 100000000 /dev/zero | tr '\\0' a", timeout_s: 60 }),
    );
    expect(value.isError).toBe(false);
    expect(value.body.truncated).toBe(true);
    expect(value.body.stdout).toHaveLength(OUTPUT_LIMIT);
    expect(value.body.stdout).toBe('a'.repeat(OUTPUT_LIMIT));
    expect(ms).toBeLessThan(15_000);
    await expectSandboxStillWorks(ctx, user);
  });

  it('kills a command that ignores SIGTERM within ~2 s of its timeout', async () => {
    const duration = uniqueSleep();
    const { value, ms } = await timed(() =>
      execute(ctx, user, { command: `trap '' TERM; sleep ${duration}; echo survived`, timeout_s: 2 }),
    );
    expect(value.isError).toBe(false);
    expect(value.body).toMatchObject({ timed_out: true, exit_code: null });
    expect(value.body.stdout).not.toContain('survived');
    expect(ms).toBeLessThan(4_500);
    expect(await leftoversAfter(duration, 1_000)).toEqual([]);
    await expectSandboxStillWorks(ctx, user);
  });
});
