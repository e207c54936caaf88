import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';
import { noRuntimeCheck } from '../tool-execution-context.js';

/**
 * First guard: the run's own authorization (account active, agent usable, lease held), re-checked by
 * the runtime before every call. A revocation ends the run rather than becoming a tool result.
 */
export class RunAuthorizationGuard implements ToolGuard {
  async canActivate({ context }: ToolCallScope): Promise<void> {
    if (context.verifyAuthorization !== noRuntimeCheck) await context.verifyAuthorization();
  }
}
