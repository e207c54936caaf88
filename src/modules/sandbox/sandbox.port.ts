/** A read-only folder shown inside the sandbox (a skill the run may read). */
export interface SandboxSkill {
  slug: string;
  hostPath: string;
}

/** One command to run. */
export interface SandboxSpec {
  command: string;
  /** The host folder shown read-write at `/home/gem/user-data` (through an overlay: see `SandboxRun`). */
  userData: string;
  /** The working directory: a virtual path at or below `/home/gem/user-data`. */
  cwd: string;
  /** Shown read-only at `/home/gem/skills/<slug>`. */
  skills: readonly SandboxSkill[];
  timeoutMs: number;
  /** Aborted when the call is cancelled (the run's cancel, the executor's timeout): the command is killed. */
  signal: AbortSignal;
  /**
   * Bytes the command's writes to `/home/gem/user-data` may reach (the whole quota: its deletions may
   * make room); past it the command is killed. Whether its changes fit is decided when they are applied.
   */
  maxWriteBytes: number;
}

/** What the command left in `/home/gem/user-data`, not yet applied to the workspace. */
export interface SandboxChanges {
  /** The overlay's upper layer on the host: files and folders the command created or changed. */
  upperDir: string;
  /**
   * Every path (relative to `/home/gem/user-data`) as the command left it, once it ended: a path of the
   * workspace that is not here was deleted by the command.
   */
  survivors: ReadonlySet<string>;
  /** When the command started (epoch ms): what changed in the workspace since was not its to delete. */
  startedAt: number;
}

export interface SandboxResult {
  /** Null when the command was killed (timeout, cancel, a limit). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Either stream was cut at the output limit. */
  truncated: boolean;
  timedOut: boolean;
  /** Killed because its writes went past `maxWriteBytes` (or `MAX_WRITTEN_ENTRIES` files and folders). */
  overQuota: boolean;
  /** What its writes to `/home/gem/user-data` came to when it was last measured. */
  writtenBytes: number;
  durationMs: number;
  /** Null when the command was killed before its changes could be read. */
  changes: SandboxChanges | null;
}

/** A finished command whose scratch folder is removed by `dispose`. */
export interface SandboxRun {
  result: SandboxResult;
  dispose(): Promise<void>;
}

/**
 * Runs commands isolated from the host. The one backend today is bubblewrap on this host; a remote one
 * (a container per thread) would implement the same port.
 */
export abstract class Sandbox {
  /** Null when commands can run; otherwise why not (the tool is then unavailable). */
  abstract unavailableReason(): string | null;
  abstract run(spec: SandboxSpec): Promise<SandboxRun>;
}
