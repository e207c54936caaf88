import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execute } from '../../support/sandbox/execute-call';
import { expectSandboxStillWorks, hostProcessesWith, workdirOf } from '../../support/sandbox/sandbox-probes';
import { TestContext, type TestUser } from '../../support/test-app';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('execute: a call cancelled mid-command', () => {
  let ctx: TestContext;
  let user: TestUser;
  let workdir: string;

  beforeAll(async () => {
    ctx = await TestContext.start();
    user = await ctx.newUser();
    workdir = workdirOf(ctx, user);
    await mkdir(workdir, { recursive: true });
  });
  afterAll(() => ctx.close());

  it('stops the command: what it would have written later never reaches the workspace', async () => {
    const duration = `3.${Math.floor(Math.random() * 1e9)}`;
    const controller = new AbortController();
    const started = Date.now();
    const call = execute(
      ctx,
      user,
      { command: `sleep ${duration}; echo marker > marker.txt` },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 500);
    const outcome = await call;
    // Answered on the cancel, not after the command would have ended.
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(outcome.isError).toBe(true);
    expect(outcome.body.error.code).toBe('tools.cancelled');
    await sleep(Math.max(0, started + 4_000 - Date.now()));
    expect(existsSync(join(workdir, 'marker.txt'))).toBe(false);
    expect(hostProcessesWith(duration)).toEqual([]);
    await expectSandboxStillWorks(ctx, user);
  });

  it('keeps none of what the command wrote before it was cancelled', async () => {
    const controller = new AbortController();
    const call = execute(
      ctx,
      user,
      { command: 'echo early > early.txt; sleep 3; echo late > late.txt' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 500);
    const outcome = await call;
    expect(outcome.isError).toBe(true);
    expect(outcome.body.error.code).toBe('tools.cancelled');
    await sleep(3_500);
    expect(existsSync(join(workdir, 'early.txt'))).toBe(false);
    expect(existsSync(join(workdir, 'late.txt'))).toBe(false);
    await expectSandboxStillWorks(ctx, user);
  });
});
