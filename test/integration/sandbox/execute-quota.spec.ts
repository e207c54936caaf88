import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execute } from '../../support/sandbox/execute-call';
import { expectSandboxStillWorks, workdirOf } from '../../support/sandbox/sandbox-probes';
import { TestContext, type TestUser } from '../../support/test-app';

const QUOTA_BYTES = 20 * 1024 * 1024;

describe('execute: writes over the workspace quota', () => {
  let ctx: TestContext;
  let user: TestUser;
  let workdir: string;

  beforeAll(async () => {
    ctx = await TestContext.start({ WORKSPACE_QUOTA_BYTES: String(QUOTA_BYTES) });
    user = await ctx.newUser();
    workdir = workdirOf(ctx, user);
    await mkdir(workdir, { recursive: true });
  });
  afterAll(() => ctx.close());

  it('answers workspace.quota_exceeded for 25 MB of writes and keeps none of them', async () => {
    await writeFile(join(workdir, 'existing.txt'), 'kept content\n');
    const before = await readdir(workdir);
    const { isError, body } = await execute(ctx, user, {
      command: 'head -c 26214400 /dev/zero > big.bin; echo x > small.txt; rm existing.txt',
      timeout_s: 60,
    });
    expect(isError).toBe(true);
    expect(body.error.code).toBe('workspace.quota_exceeded');
    expect(existsSync(join(workdir, 'big.bin'))).toBe(false);
    expect(existsSync(join(workdir, 'small.txt'))).toBe(false);
    expect(await readFile(join(workdir, 'existing.txt'), 'utf8')).toBe('kept content\n');
    expect(await readdir(workdir)).toEqual(before);
    await expectSandboxStillWorks(ctx, user);
  }, 60_000);

  it('keeps none of the writes when the quota is passed in many small files', async () => {
    await writeFile(join(workdir, 'existing.txt'), 'kept content\n');
    const before = await readdir(workdir);
    const { isError, body } = await execute(ctx, user, {
      command:
        'mkdir many && i=0; while [ $i -lt 25 ]; do head -c 1048576 /dev/zero > many/f$i; i=$((i+1)); done; ' +
        'echo x > small.txt; rm existing.txt',
      timeout_s: 60,
    });
    expect(isError).toBe(true);
    expect(body.error.code).toBe('workspace.quota_exceeded');
    expect(existsSync(join(workdir, 'many'))).toBe(false);
    expect(existsSync(join(workdir, 'small.txt'))).toBe(false);
    expect(await readFile(join(workdir, 'existing.txt'), 'utf8')).toBe('kept content\n');
    expect(await readdir(workdir)).toEqual(before);
    await expectSandboxStillWorks(ctx, user);
  }, 60_000);
});
