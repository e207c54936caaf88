import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

/**
 * A compiled entrypoint (`dist/src/*.js`, built by the test command) running as its own process, in an
 * empty working directory so no `.env` file leaks in; the environment is exactly what the test passes.
 */
export class ServiceProcess {
  stdout = '';
  stderr = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    // 'close', not 'exit': 'exit' may come before the last output is read from the pipes, and what a
    // process writes last (its shutdown line) is what callers look for.
    this.exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  }

  static start(
    entry: 'main' | 'worker' | 'cli/waiting-points',
    env: Record<string, string>,
    args: string[] = [],
  ): ServiceProcess {
    const child = spawn(process.execPath, [join(ROOT, 'dist/src', `${entry}.js`), ...args], {
      cwd: mkdtempSync(join(tmpdir(), 'yuxi-e2e-')),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServiceProcess(child);
  }

  /** Exit code, or throws if the process is still running after `timeoutMs`. */
  async exitCode(timeoutMs: number): Promise<number | null> {
    return (await this.exit(timeoutMs)).code;
  }

  async exit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`still running after ${timeoutMs} ms\n${this.stderr}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async waitHealthy(port: number, timeoutMs = 20_000): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      if (this.child.exitCode !== null)
        throw new Error(`exited with ${this.child.exitCode}:\n${this.stderr}`);
      const status = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.status)
        .catch(() => 0);
      if (status === 200) return Date.now() - started;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`not healthy after ${timeoutMs} ms:\n${this.stderr}\n${this.stdout.slice(-2000)}`);
  }

  /**
   * Resolves once the process has written `text` to stdout: its logs reach the pipe asynchronously, so a
   * line may arrive after the state it reports is already visible from outside.
   */
  async printed(text: string, timeoutMs = 10_000): Promise<void> {
    const started = Date.now();
    while (!this.stdout.includes(text)) {
      if (Date.now() - started > timeoutMs)
        throw new Error(`"${text}" not printed after ${timeoutMs} ms:\n${this.stdout.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * SIGTERM, then how the process ended. Nest re-raises the signal after its shutdown hooks, so a
   * graceful stop ends by SIGTERM; `graceful` says the last hook (`shutdown complete`) was logged.
   */
  async terminate(
    timeoutMs: number,
  ): Promise<{ graceful: boolean; signal: NodeJS.Signals | null; ms: number }> {
    const started = Date.now();
    this.child.kill('SIGTERM');
    const { signal } = await this.exit(timeoutMs);
    return { graceful: this.stdout.includes('shutdown complete'), signal, ms: Date.now() - started };
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
