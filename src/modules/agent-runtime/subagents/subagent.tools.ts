import { Injectable } from '@nestjs/common';
import { AgentTool, type ToolInvocation, type ToolOutput } from '../../tools/index.js';
import { SubagentRuns } from './subagent-runs.js';
import {
  DEFAULT_AWAIT_SECONDS,
  SUBAGENT_AWAIT,
  SUBAGENT_CANCEL,
  SUBAGENT_START,
  SUBAGENT_STATUS,
  subagentAwaitSchema,
  subagentRunSchema,
  subagentStartSchema,
  type SubagentAwaitArgs,
  type SubagentRunArgs,
  type SubagentStartArgs,
} from './subagent-tool-schemas.js';

const common = { category: 'builtin' as const, tags: ['子智能体'], forbiddenForSubagents: true };

/**
 * The subagent tools (`docs/api.md` "Subagents"). Mounted by `SubagentToolSource` only for a run that
 * may call subagents; never executable in a subagent run. `subagent_await` only looks: when the child
 * is still active the run session parks the parent (`session/subagent-await.ts`).
 */
@Injectable()
export class SubagentTools {
  constructor(private readonly subagents: SubagentRuns) {}

  @AgentTool({
    ...common,
    name: SUBAGENT_START,
    displayName: '派发子任务',
    description:
      'Start a subagent on a task; returns at once with {status: "started", run_id, thread_id, ' +
      'subagent_slug}, or {status: "busy", thread_id, active_run_id} when that thread already runs a ' +
      'task. Start all independent tasks first, then subagent_await each. Pass thread_id to continue ' +
      'an earlier task of the same subagent.',
    schema: subagentStartSchema,
  })
  start(args: SubagentStartArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    return this.subagents.start(args, invocation);
  }

  @AgentTool({
    ...common,
    name: SUBAGENT_STATUS,
    displayName: '子任务状态',
    description: 'The status of a subagent run you started, with its recent progress. Does not wait.',
    schema: subagentRunSchema,
  })
  status(args: SubagentRunArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    return this.subagents.status(args.run_id, invocation);
  }

  @AgentTool({
    ...common,
    name: SUBAGENT_AWAIT,
    displayName: '等待子任务',
    description:
      'Wait until a subagent run you started ends: {run_id, status, output} (its final answer), or ' +
      `{run_id, status, timed_out: true} after timeout_s seconds (default ${DEFAULT_AWAIT_SECONDS}).`,
    schema: subagentAwaitSchema,
    // The wait itself happens outside the call (the run is parked), so no call timeout applies to it.
  })
  await(args: SubagentAwaitArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    return this.subagents.check(args, invocation);
  }

  @AgentTool({
    ...common,
    name: SUBAGENT_CANCEL,
    displayName: '取消子任务',
    description: 'Cancel a subagent run you started: {run_id, status}.',
    schema: subagentRunSchema,
  })
  cancel(args: SubagentRunArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    return this.subagents.cancel(args.run_id, invocation);
  }
}
