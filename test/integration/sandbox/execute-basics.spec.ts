import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execute } from '../../support/sandbox/execute-call';
import { workdirOf } from '../../support/sandbox/sandbox-probes';
import { TestContext, type TestUser } from '../../support/test-app';

describe('execute: a command in the sandbox over the workspace', () => {
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

  it('runs the command in the workdir and answers exit code and output', async () => {
    const { isError, body } = await execute(ctx, user, { command: 'pwd; echo out; echo err >&2; exit 3' });
    expect(isError).toBe(false);
    expect(body).toMatchObject({
      exit_code: 3,
      stdout: '/home/gem/user-data/workdir/demo\nout\n',
      stderr: 'err\n',
      truncated: false,
      timed_out: false,
    });
    expect(typeof body.duration_ms).toBe('number');
  });

  it('keeps the files a command writes, changes and deletes in the workspace', async () => {
    await writeFile(join(workdir, 'old.txt'), 'old');
    await writeFile(join(workdir, 'gone.txt'), 'gone');
    const { body } = await execute(ctx, user, {
      command:
        'echo new > new.txt && echo changed > old.txt && rm gone.txt && mkdir -p sub && echo s > sub/s.txt',
    });
    expect(body.exit_code).toBe(0);
    expect(await readFile(join(workdir, 'new.txt'), 'utf8')).toBe('new\n');
    expect(await readFile(join(workdir, 'old.txt'), 'utf8')).toBe('changed\n');
    expect(await readFile(join(workdir, 'sub', 's.txt'), 'utf8')).toBe('s\n');
    expect(existsSync(join(workdir, 'gone.txt'))).toBe(false);
  });

  it('runs as an unprivileged user with a fixed environment and no capabilities', async () => {
    const { body } = await execute(ctx, user, {
      command: 'id -u; env | sort; grep -E "^Cap(Eff|Prm|Amb)" /proc/self/status',
    });
    const lines = (body.stdout as string).trim().split('\n');
    expect(lines[0]).toBe('1000');
    expect(lines.filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split('=')[0])).toEqual([
      'HOME',
      'LANG',
      'OLDPWD',
      'PATH',
      'PWD',
      'TMPDIR',
    ]);
    expect(lines.filter((line) => line.startsWith('Cap'))).toEqual([
      'CapPrm:\t0000000000000000',
      'CapEff:\t0000000000000000',
      'CapAmb:\t0000000000000000',
    ]);
  });

  it('empties a folder made anew, and keeps what another command of the user wrote meanwhile', async () => {
    await mkdir(join(workdir, 'remade'), { recursive: true });
    await writeFile(join(workdir, 'remade', 'stale.txt'), 'stale');
    const [slow, fast] = await Promise.all([
      execute(ctx, user, {
        command: 'sleep 1; rm -rf remade && mkdir remade && echo fresh > remade/fresh.txt',
      }),
      execute(ctx, user, { command: 'echo other > other.txt' }),
    ]);
    expect([slow.body.exit_code, fast.body.exit_code]).toEqual([0, 0]);
    expect(await readFile(join(workdir, 'remade', 'fresh.txt'), 'utf8')).toBe('fresh\n');
    expect(existsSync(join(workdir, 'remade', 'stale.txt'))).toBe(false);
    expect(await readFile(join(workdir, 'other.txt'), 'utf8')).toBe('other\n');
  });

  it('removes a link leading out of the workspace that the command deletes, and nothing it pointed to', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'sandbox-outside-'));
    await writeFile(join(outside, 'keep.txt'), 'keep');
    await symlink(outside, join(workdir, 'out-link'));
    const { body } = await execute(ctx, user, { command: 'rm out-link && echo after > after.txt' });
    expect(body.exit_code).toBe(0);
    await expect(lstat(join(workdir, 'out-link'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect(await readFile(join(workdir, 'after.txt'), 'utf8')).toBe('after\n');
  });

  it('runs below the service’s priority', async () => {
    const { body } = await execute(ctx, user, { command: 'nice' });
    expect(body.stdout).toBe('10\n');
  });
});
