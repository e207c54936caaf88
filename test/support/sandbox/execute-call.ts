import { randomUUID } from 'node:crypto';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import type { TestContext, TestUser } from '../test-app';

export const SANDBOX_WORKDIR = '/home/gem/user-data/workdir/demo';

/** What `execute` answers: its result, or the tool error the model would get. */
export interface ExecuteOutcome {
  isError: boolean;
  body: Record<string, any>;
}

/** A direct call of `execute` through the ToolExecutor for `user` in the `demo` project. */
export async function execute(
  ctx: TestContext,
  user: TestUser,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal; skills?: string[] } = {},
): Promise<ExecuteOutcome> {
  const context: ToolExecutionContext = {
    user: { id: user.id, role: user.role, departmentId: user.departmentId },
    runId: randomUUID(),
    threadId: randomUUID(),
    leaseToken: randomUUID(),
    workdir: SANDBOX_WORKDIR,
    executableTools: new Set(['execute']),
    visibleTools: new Set(['execute']),
    isSubagent: false,
    skills: options.skills,
    signal: options.signal,
    verifyAuthorization: noRuntimeCheck,
  };
  const result = await ctx.app
    .get(ToolExecutor)
    .execute({ id: `call-${randomUUID()}`, name: 'execute', args }, context);
  return { isError: result.isError, body: JSON.parse(result.content) as Record<string, any> };
}
