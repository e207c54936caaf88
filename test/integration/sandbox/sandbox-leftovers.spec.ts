import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rmdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SANDBOX_CGROUP_PARENTS } from '../../../src/modules/sandbox/bubblewrap/sandbox-cgroup';
import { sweepLeftovers } from '../../../src/modules/sandbox/bubblewrap/sweep-leftovers';

const HOUR = 60 * 60 * 1000;

describe('leftovers of sandboxes whose process died', () => {
  it('removes scratch folders older than any command lives, and nothing younger or unrelated', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandbox-root-'));
    const old = new Date(Date.now() - 2 * HOUR);
    for (const name of ['run-old', 'probe-old', 'etc-old']) {
      await mkdir(join(root, name));
      await writeFile(join(root, name, 'file'), 'x');
      await utimes(join(root, name), old, old);
    }
    await mkdir(join(root, 'run-fresh'));
    await sweepLeftovers(root, HOUR);
    expect(existsSync(join(root, 'run-old'))).toBe(false);
    expect(existsSync(join(root, 'probe-old'))).toBe(false);
    expect(existsSync(join(root, 'etc-old'))).toBe(true);
    expect(existsSync(join(root, 'run-fresh'))).toBe(true);
  });

  it('removes empty cgroups only once they are older than any command lives', async () => {
    // A parent of its own beside the sandboxes' (theirs may be in use by other tests right now).
    const parent = join(dirname(SANDBOX_CGROUP_PARENTS[0]), `yuxi-sweep-test-${process.pid}`);
    const young = join(parent, 'young');
    await mkdir(young, { recursive: true });
    const root = await mkdtemp(join(tmpdir(), 'sandbox-root-'));
    try {
      await sweepLeftovers(root, HOUR, [parent]);
      expect(existsSync(young)).toBe(true);
      await sweepLeftovers(root, -HOUR, [parent]);
      expect(existsSync(young)).toBe(false);
    } finally {
      await rmdir(young).catch(() => undefined);
      await rmdir(parent).catch(() => undefined);
    }
  });
});
