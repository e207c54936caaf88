import { mkdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The cgroup (v1) controllers a sandbox is put in when the host lets this process make them. */
const V1_ROOT = '/sys/fs/cgroup';
const PIDS_PARENT = join(V1_ROOT, 'pids', 'yuxi-sandbox');
const MEMORY_PARENT = join(V1_ROOT, 'memory', 'yuxi-sandbox');
/** Where the sandboxes' cgroups are made. */
export const SANDBOX_CGROUP_PARENTS = [PIDS_PARENT, MEMORY_PARENT];

/**
 * A fork bomb and a memory hog are bounded for the whole sandbox by its own `pids` and `memory`
 * cgroups when this process may create them (root with a writable cgroup v1 hierarchy); elsewhere the
 * per-process limits (`prlimit`) are what holds.
 */
export class SandboxCgroup {
  private constructor(private readonly dirs: string[]) {}

  static async create(name: string, limits: { maxProcesses: number; memoryBytes: number }) {
    const made: string[] = [];
    try {
      const pids = join(PIDS_PARENT, name);
      await mkdir(pids, { recursive: true });
      made.push(pids);
      await writeFile(join(pids, 'pids.max'), String(limits.maxProcesses));
      const memory = join(MEMORY_PARENT, name);
      await mkdir(memory, { recursive: true });
      made.push(memory);
      await writeFile(join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      return new SandboxCgroup(made);
    } catch {
      await Promise.all(made.map((dir) => rmdir(dir).catch(() => undefined)));
      return null;
    }
  }

  async add(pid: number): Promise<void> {
    for (const dir of this.dirs) await writeFile(join(dir, 'cgroup.procs'), String(pid));
  }

  /**
   * Removed once its processes are gone (a cgroup with members cannot be). The last one usually leaves
   * within a few milliseconds of the command's exit, so the retries start short and back off to 50 ms,
   * about a second in all.
   */
  async remove(): Promise<void> {
    for (const dir of this.dirs)
      for (let attempt = 0, delayMs = 1; attempt < 30; attempt++, delayMs = Math.min(delayMs * 2, 50)) {
        try {
          await rmdir(dir);
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
      }
  }
}
