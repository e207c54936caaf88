import type { UserRole } from '../../../common/auth/user-role.js';
import type { RunApproval } from '../approval/run-approval.js';
import type { RegisteredTool } from '../registry/tool-registry.js';

/** The user a run acts for, as re-checked when the run was prepared. */
export interface ToolCaller {
  id: string;
  role: UserRole;
  departmentId: string;
}

/** What the execution boundary knows about one call's surroundings, with or without a runtime around it. */
interface ToolCallSurroundings {
  user: ToolCaller;
  runId: string;
  threadId: string;
  /** The run's execution lease: side effects that matter re-check it in their transaction. */
  leaseToken: string;
  /** Virtual path of the thread's project workdir (`/home/gem/user-data/workdir/<project>/`). */
  workdir: string;
  /** Tools bound for this run. */
  executableTools: ReadonlySet<string>;
  /** Tools the model was shown in this turn (skill gating); a hidden tool called by name is refused. */
  visibleTools: ReadonlySet<string>;
  isSubagent: boolean;
  /** The shared and builtin skills of the run (its config snapshot): what a sandboxed command may read. */
  skills?: readonly string[];
  /** Aborted when the run is cancelled. */
  signal?: AbortSignal;
  /** The run's approval policy and decisions; without it (a direct call) no policy applies. */
  approval?: RunApproval;
}

/** A call made by a run the runtime executes: the only context the runtime can build. */
export interface RunToolContext extends ToolCallSurroundings {
  /**
   * Every tool offered to this run, by name, as the source that offered it executes it (a builtin from
   * the registry, an MCP tool through its server). A run's calls resolve here only: a name is executed
   * from its origin, never from whatever the registry holds under it.
   */
  offeredTools: ReadonlyMap<string, RegisteredTool>;
  /**
   * Re-checks, before each call, that the run may still act (account active, agent still usable,
   * lease still held); throws `RunAuthorizationRevokedError` otherwise.
   */
  verifyAuthorization: () => Promise<void>;
}

/**
 * Stands where a run's authorization check would be, in a context no runtime is around (tool tests,
 * benches). Not exported by the module's front door: no other module can build such a context.
 */
export const noRuntimeCheck: unique symbol = Symbol('noRuntimeCheck');

/** A call made directly, with no runtime around it: nothing re-checks a run; the registry resolves names. */
export interface DirectToolContext extends ToolCallSurroundings {
  offeredTools?: ReadonlyMap<string, RegisteredTool>;
  verifyAuthorization: typeof noRuntimeCheck;
}

export type ToolExecutionContext = RunToolContext | DirectToolContext;

export interface ToolCall {
  /** The model's tool_call_id: the result is bound to it. */
  id: string;
  name: string;
  args: unknown;
}

/** What a handler receives besides its validated arguments. */
export interface ToolInvocation {
  context: ToolExecutionContext;
  toolCallId: string;
  /** Aborted on timeout or run cancellation. */
  signal: AbortSignal;
}

/** A handler returns text, or a JSON value the executor serializes. */
export type ToolOutput = string | Record<string, unknown> | unknown[];
