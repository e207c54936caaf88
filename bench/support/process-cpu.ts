import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux builds). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, every thread) a child process has used so far, from `/proc/<pid>/stat`.
 * Its resolution is 10 ms, so figures are taken over many runs. Null where `/proc` is not there.
 */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU milliseconds per run the API and worker processes spent while `work` ran `runs` runs. */
export async function cpuPerRun<T>(
  pids: { api: number; worker: number },
  runs: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: { apiMsPerRun: number; workerMsPerRun: number } }> {
  const before = { api: processCpuSeconds(pids.api), worker: processCpuSeconds(pids.worker) };
  const result = await work();
  const perRun = (pid: number, start: number | null) => {
    const end = processCpuSeconds(pid);
    return start === null || end === null ? Number.NaN : ((end - start) * 1000) / runs;
  };
  return {
    result,
    cpu: { apiMsPerRun: perRun(pids.api, before.api), workerMsPerRun: perRun(pids.worker, before.worker) },
  };
}

/**
 * CPU seconds of every process named `comm` (e.g. `postgres`, `redis-server`). Without `keep`, what
 * their exited children used counts too (cutime + cstime: PostgreSQL backends that closed are counted
 * to the postmaster), and every process of that name on the machine counts, so another bench on the
 * same PostgreSQL inflates it. With `keep`, only the processes whose command line (a PostgreSQL
 * backend's title names its database) it keeps, without their exited children.
 */
export function commandCpuSeconds(comm: string, keep?: (cmdline: string) => boolean): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== comm) continue;
      if (keep !== undefined && !keep(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ')))
        continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const times = fields.slice(11, keep === undefined ? 15 : 13);
      total += times.reduce((sum, field) => sum + Number(field), 0) / TICKS_PER_SECOND;
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return total;
}

/** Resident set size of a process in bytes (`VmRSS` of `/proc/<pid>/status`), null once it is gone. */
export function processRssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs` until `stop`, which returns the peak in bytes. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = processRssBytes(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, processRssBytes(pid) ?? 0);
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, processRssBytes(pid) ?? 0);
    },
  };
}
