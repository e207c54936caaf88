import {
  noRuntimeCheck,
  type ToolInvocation,
} from '../../../src/modules/tools/execution/tool-execution-context';
import type { TestUser } from '../../support/test-app';

export const WORKDIR = '/home/gem/user-data/workdir/demo/';

/** What the runtime would hand a file tool: this user's run in the `demo` project workdir. */
export function invocationFor(user: TestUser, toolCallId = 'call_1'): ToolInvocation {
  return {
    context: {
      user: { id: user.id, role: user.role, departmentId: user.departmentId },
      runId: 'run-1',
      threadId: 'thread-1',
      leaseToken: 'lease-1',
      workdir: WORKDIR,
      executableTools: new Set(),
      visibleTools: new Set(),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
    },
    toolCallId,
    signal: new AbortController().signal,
  };
}

/** The code and reason of a refused call, or `resolved` when the call went through. */
export async function outcomeOf(
  call: Promise<unknown>,
): Promise<{ code: string; reason?: unknown } | 'resolved'> {
  try {
    await call;
    return 'resolved';
  } catch (error) {
    const { code, details } = error as { code: string; details?: { reason?: unknown } };
    return details?.reason === undefined ? { code } : { code, reason: details.reason };
  }
}
