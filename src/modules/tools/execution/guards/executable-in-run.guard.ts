import { ToolsErrors } from '../../tools.errors.js';
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';

/** The tool must exist and be bound for this run. */
export class ExecutableInRunGuard implements ToolGuard {
  canActivate({ call, tool, context }: ToolCallScope): void {
    if (tool === undefined || !context.executableTools.has(call.name))
      throw ToolsErrors.notExecutable(call.name);
  }
}
