import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  noRuntimeCheck,
  type ToolExecutionContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { WorkspacePathResolver } from '../../../src/modules/workspace/paths/workspace-path-resolver';
import type { TestContext, TestUser } from '../test-app';

export const SANDBOX_WORKDIR = '/home/gem/user-data/workdir/demo';

/** What `execute` answers: its result, or the tool error the model would get. */
export interface ExecuteOutcome {
  isError: boolean;
  body: Record<string, any>;
  /** The workspace file a result too large for the model was saved to (the body is read from it). */
  offloadedTo?: string;
}

const OFFLOADED =
  /^\[This result is too large to show in full: \d+ characters \(\d+ bytes, \d+ lines\)\. The full text was saved to (\S+\.txt)\. /;

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
  const offloaded = result.isError ? null : OFFLOADED.exec(result.content);
  if (offloaded === null)
    return { isError: result.isError, body: JSON.parse(result.content) as Record<string, any> };
  const saved = await ctx.app
    .get(WorkspacePathResolver)
    .resolve(context.user, offloaded[1], { access: 'read', workdir: SANDBOX_WORKDIR });
  const body = JSON.parse(await readFile(saved.realPath, 'utf8')) as Record<string, any>;
  return { isError: false, body, offloadedTo: offloaded[1] };
}
