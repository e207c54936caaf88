import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AppConfig } from '../../../config/app-config.js';
import { Sandbox, type SandboxResult, type SandboxRun, type SandboxSpec } from '../sandbox.port.js';
import { SandboxErrors } from '../sandbox.errors.js';
import { bwrapArgs, launcher, type CommandLimits } from './bwrap-args.js';
import { CappedOutput } from './capped-output.js';
import { SANDBOX_FSTAB, SETUP_FAILURES } from './entry-script.js';
import { measureTree } from './measure-tree.js';
import { inSandboxSpan } from './sandbox-span.js';
import { SandboxCgroup } from './sandbox-cgroup.js';
import { sweepLeftovers } from './sweep-leftovers.js';

/** The exit record and the surviving paths the entry script writes to fd 3 (bounded). */
const MANIFEST_LIMIT_BYTES = 64 * 1024 * 1024;
/** Files and folders one command may leave in the workspace (empty ones count against no byte quota). */
const MAX_WRITTEN_ENTRIES = 100_000;
/** How often the overlay's upper layer is measured while a command runs. */
const WATCH_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 15_000;
/** Scheduling priority of every process of a command (inherited from the launcher). */
const COMMAND_NICENESS = 10;
/** Longer than any command lives (600 s at most): what is older was left by a process that died. */
const STALE_AFTER_MS = 60 * 60 * 1000;

const ETC_FILES: Readonly<Record<string, string>> = {
  passwd:
    'root:x:0:0:root:/root:/bin/sh\ngem:x:1000:1000:gem:/home/gem:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n',
  group: 'root:x:0:\ngem:x:1000:\nnogroup:x:65534:\n',
  hosts: '127.0.0.1 localhost sandbox\n::1 localhost\n',
  'sandbox-fstab': SANDBOX_FSTAB,
};

type KillReason = 'timeout' | 'cancel' | 'over_quota';

/**
 * The sandbox on this host: bubblewrap (`bwrap`), the command as an unprivileged uid of nested user
 * namespaces with no capabilities, its workspace writes held in an overlay until they are applied. A
 * probe (`true` in a sandbox) at start decides whether commands can run at all.
 */
@Injectable()
export class BubblewrapSandbox extends Sandbox implements OnModuleInit {
  private readonly logger = new Logger(BubblewrapSandbox.name);
  private readonly root: string;
  private unavailable: string | null = 'the sandbox has not been probed yet';

  constructor(private readonly config: AppConfig) {
    super();
    this.root = resolve(config.dataDir, 'sandbox');
  }

  async onModuleInit(): Promise<void> {
    await sweepLeftovers(this.root, STALE_AFTER_MS);
    this.unavailable = await this.probe();
    if (this.unavailable !== null) this.logger.warn({ reason: this.unavailable }, 'execute is unavailable');
  }

  unavailableReason(): string | null {
    return this.unavailable;
  }

  /** Runs `true` in a sandbox over an empty workspace: null when that worked, else why not. */
  async probe(): Promise<string | null> {
    try {
      await mkdir(join(this.root, 'etc'), { recursive: true });
      for (const [name, content] of Object.entries(ETC_FILES))
        await writeFile(join(this.root, 'etc', name), content, { mode: 0o644 });
      const empty = await mkdtemp(join(this.root, 'probe-'));
      try {
        const run = await this.start({
          command: 'true',
          userData: empty,
          cwd: '/home/gem/user-data',
          skills: [],
          timeoutMs: PROBE_TIMEOUT_MS,
          signal: new AbortController().signal,
          maxWriteBytes: 1024 * 1024,
        });
        await run.dispose();
        if (run.result.exitCode !== 0)
          return `a sandbox could not run a command (${run.result.stderr.trim().slice(0, 300) || `exit ${run.result.exitCode}`})`;
        return null;
      } finally {
        await rm(empty, { recursive: true, force: true });
      }
    } catch (error) {
      const reason = (error as { details?: { reason?: unknown } }).details?.reason;
      return typeof reason === 'string' ? reason : (error as Error).message;
    }
  }

  async run(spec: SandboxSpec): Promise<SandboxRun> {
    if (this.unavailable !== null) throw SandboxErrors.unavailable(this.unavailable);
    const limits = { command: this.limits(spec), outputLimitBytes: this.config.sandbox.outputLimitBytes };
    return inSandboxSpan(spec, limits, () => this.start(spec));
  }

  private limits(spec: SandboxSpec): CommandLimits {
    const { sandbox } = this.config;
    const memoryBytes = sandbox.memoryMb * 1024 * 1024;
    return {
      memoryBytes,
      cpuSeconds: sandbox.cpuSeconds,
      maxProcesses: sandbox.maxProcesses,
      maxOpenFiles: 1024,
      // No file can be larger than the workspace or /tmp could hold.
      fileSizeBytes: Math.max(spec.maxWriteBytes, sandbox.tmpMb * 1024 * 1024, 1),
      tmpBytes: sandbox.tmpMb * 1024 * 1024,
    };
  }

  private async start(spec: SandboxSpec): Promise<SandboxRun> {
    const started = performance.now();
    const startedAt = Date.now();
    const scratch = await mkdtemp(join(this.root, 'run-'));
    const limits = this.limits(spec);
    const cgroup = await SandboxCgroup.create(randomUUID(), limits);
    // The kernel does not count root's processes against a process limit: as root, only a cgroup bounds them.
    if (cgroup === null && process.getuid?.() === 0) {
      await rm(scratch, { recursive: true, force: true });
      throw SandboxErrors.unavailable(
        'the worker runs as root and cannot create cgroups to bound a command; run it as another user',
      );
    }
    const dispose = async () => {
      await cgroup?.remove();
      await rm(scratch, { recursive: true, force: true });
    };
    try {
      const args = bwrapArgs(spec, { scratch, etc: join(this.root, 'etc') }, limits);
      await mkdir(join(scratch, 'upper'));
      await mkdir(join(scratch, 'work'));
      const child = spawn('prlimit', launcher(this.config.sandbox.bwrap, limits, args), {
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        detached: true,
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done, fail) => {
        child.on('error', fail);
        child.on('close', (code, signal) => done({ code, signal }));
      });
      const output = this.config.sandbox.outputLimitBytes;
      const stdout = new CappedOutput(child.stdout, output);
      const stderr = new CappedOutput(child.stderr, output);
      const manifest = new CappedOutput(
        child.stdio[3] as NodeJS.ReadableStream as never,
        MANIFEST_LIMIT_BYTES,
      );

      let killed: KillReason | null = null;
      const kill = (reason: KillReason) => {
        if (killed !== null) return;
        killed = reason;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      if (cgroup !== null) {
        // Not started yet (it waits for its line): a command that cannot be confined never runs.
        const joined = await cgroup.add(child.pid!).then(
          () => true,
          () => false,
        );
        if (!joined) {
          kill('cancel');
          await exited.catch(() => undefined);
          throw SandboxErrors.unavailable('a command could not be put in its cgroups');
        }
      }
      // Below the service's own priority: commands get the CPU the worker and its runs leave.
      try {
        setPriority(child.pid!, COMMAND_NICENESS);
      } catch {
        // a priority is a courtesy, not a limit
      }
      child.stdin.end('\n');
      const timer = setTimeout(() => kill('timeout'), spec.timeoutMs);
      const onAbort = () => kill('cancel');
      if (spec.signal.aborted) onAbort();
      spec.signal.addEventListener('abort', onAbort, { once: true });
      let measuring = false;
      let writtenBytes = 0;
      const watcher = setInterval(() => {
        if (measuring) return;
        measuring = true;
        void measureTree(join(scratch, 'upper')).then(({ bytes, entries }) => {
          measuring = false;
          writtenBytes = bytes;
          if (bytes > spec.maxWriteBytes || entries > MAX_WRITTEN_ENTRIES) kill('over_quota');
        });
      }, WATCH_INTERVAL_MS);
      let end: { code: number | null; signal: NodeJS.Signals | null };
      try {
        end = await exited;
        await Promise.all([stdout.done, stderr.done, manifest.done]);
      } finally {
        clearTimeout(timer);
        clearInterval(watcher);
        spec.signal.removeEventListener('abort', onAbort);
      }
      const result = this.resultOf(end, killed, manifest, { stdout, stderr }, scratch, startedAt);
      result.writtenBytes = writtenBytes;
      result.durationMs = Math.round(performance.now() - started);
      return { result, dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  private resultOf(
    end: { code: number | null },
    killed: KillReason | null,
    manifest: CappedOutput,
    streams: { stdout: CappedOutput; stderr: CappedOutput },
    scratch: string,
    startedAt: number,
  ): SandboxResult {
    const common = {
      stdout: streams.stdout.text(),
      stderr: streams.stderr.text(),
      truncated: streams.stdout.truncated || streams.stderr.truncated,
      timedOut: killed === 'timeout',
      overQuota: killed === 'over_quota',
      writtenBytes: 0,
      durationMs: 0,
    };
    const records = manifest.bytes().toString('utf8').split('\0');
    const exit = /^exit:(\d+)$/.exec(records[0] ?? '');
    if (killed !== null || exit === null || manifest.truncated) {
      if (killed === null && end.code !== null && SETUP_FAILURES[end.code] !== undefined)
        throw SandboxErrors.unavailable(`${SETUP_FAILURES[end.code]}: ${common.stderr.trim().slice(0, 300)}`);
      if (killed === null && exit === null && !manifest.truncated)
        throw SandboxErrors.unavailable(
          `the sandbox failed (exit ${end.code}): ${common.stderr.trim().slice(0, 300)}`,
        );
      return { ...common, exitCode: null, changes: null };
    }
    const status = Number(exit[1]);
    const survivors = new Set(records.slice(1).filter((path) => path !== ''));
    return {
      ...common,
      exitCode: status,
      changes: { upperDir: join(scratch, 'upper'), survivors, startedAt },
    };
  }
}
