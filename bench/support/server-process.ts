import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup } from './cleanup.js';
import { httpRequest } from './http.js';

const OUTPUT_LIMIT = 64 * 1024;
const POLL_INTERVAL_MS = 20;

export interface StartOptions {
  /** A label for messages, e.g. "app (empty db)". */
  label: string;
  /** The compiled entry point, e.g. dist/src/main.js. */
  script: string;
  port: number;
  /** The child's complete environment (nothing is inherited from the bench process). */
  env: Record<string, string>;
  cwd: string;
  /** Polled every 20 ms until it answers 200. */
  healthPath: string;
  /** For a process without HTTP (a worker): ready once its output contains this text instead. */
  readyOutput?: string;
  timeoutMs?: number;
}

export class ServerStartError extends Error {}

/**
 * `BENCH_CPU_PROF_DIR=<dir>` starts every server under V8's sampling profiler; each writes a
 * `.cpuprofile` into `<dir>/<label>/` when it exits (see `npm run bench:profile`).
 */
function profilerArgs(label: string): string[] {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  if (dir === undefined || dir === '') return [];
  return [
    '--cpu-prof',
    ...(process.env.BENCH_CPU_PROF_INTERVAL
      ? [`--cpu-prof-interval=${process.env.BENCH_CPU_PROF_INTERVAL}`]
      : []),
    `--cpu-prof-dir=${join(dir, label.replace(/[^\w.-]+/g, '_'))}`,
  ];
}

/**
 * A server running as a child process (`node <script>`), so the load generator and the server never
 * share a JS thread. Captures the child's stdout/stderr (the last 64 KiB) for failure reports.
 */
export class ServerProcess {
  private output = '';
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private readonly unregister: () => void;

  private constructor(
    readonly options: StartOptions,
    private readonly child: ChildProcess,
    /** performance.now() just before spawn. */
    readonly spawnedAt: number,
  ) {
    const capture = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
    };
    child.stdout!.on('data', capture);
    child.stderr!.on('data', capture);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve({ code, signal });
      });
    });
    this.unregister = onCleanup(`stop ${options.label}`, async () => {
      if (this.exitInfo === null) {
        child.kill('SIGKILL');
        await this.exited;
      }
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get capturedOutput(): string {
    return this.output;
  }

  /** Spawns the server and resolves once `healthPath` answers 200; `startupMs` is spawn → first 200. */
  static async start(options: StartOptions): Promise<{ server: ServerProcess; startupMs: number }> {
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, [...profilerArgs(options.label), options.script], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(options, child, spawnedAt);
    const startupMs = await server.waitHealthy(options.timeoutMs ?? 30_000);
    return { server, startupMs };
  }

  private async waitHealthy(timeoutMs: number): Promise<number> {
    const url = `${this.baseUrl}${this.options.healthPath}`;
    let lastProblem = 'no attempt yet';
    while (performance.now() - this.spawnedAt < timeoutMs) {
      if (this.exitInfo !== null) {
        throw this.failure(
          `exited before becoming healthy (code ${this.exitInfo.code}, signal ${this.exitInfo.signal})`,
        );
      }
      const attemptAt = performance.now();
      if (this.options.readyOutput !== undefined) {
        if (this.output.includes(this.options.readyOutput)) return performance.now() - this.spawnedAt;
        await sleep(POLL_INTERVAL_MS);
        continue;
      }
      try {
        const res = await httpRequest(url, { timeoutMs: 5_000 });
        if (res.status === 200) return performance.now() - this.spawnedAt;
        lastProblem = `HTTP ${res.status}: ${res.body.slice(0, 300)}`;
      } catch (error) {
        lastProblem = error instanceof Error ? error.message : String(error);
      }
      const wait = POLL_INTERVAL_MS - (performance.now() - attemptAt);
      if (wait > 0) await sleep(wait);
    }
    await this.kill();
    throw this.failure(`not healthy after ${timeoutMs} ms (last poll: ${lastProblem})`);
  }

  /** SIGTERM, then waits for the exit; returns the milliseconds from the signal to the exit. */
  async stop(timeoutMs = 40_000): Promise<number> {
    if (this.exitInfo !== null) throw this.failure(`had already exited (code ${this.exitInfo.code})`);
    const signalledAt = performance.now();
    this.child.kill('SIGTERM');
    const timedOut = Symbol('timeout');
    const result = await Promise.race([this.exited, sleep(timeoutMs, timedOut, { ref: false })]);
    const elapsed = performance.now() - signalledAt;
    if (result === timedOut) {
      await this.kill();
      throw this.failure(`did not exit within ${timeoutMs} ms of SIGTERM (killed)`);
    }
    this.unregister();
    return elapsed;
  }

  async kill(): Promise<void> {
    if (this.exitInfo === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
    this.unregister();
  }

  /** An error carrying the child's captured output, so a failed start explains itself. */
  failure(problem: string): ServerStartError {
    const output = this.output.trim() === '' ? '(no output)' : this.output.trimEnd();
    return new ServerStartError(
      `${this.options.label} (${this.options.script}) ${problem}\n----- child output (last 64 KiB) -----\n${output}\n-----`,
    );
  }
}
