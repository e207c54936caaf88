import { SUBAGENT_FORBIDDEN_TOOL_NAMES } from '../../registry/base-tools.js';
import { ToolsErrors } from '../../tools.errors.js';
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';

/** Subagents never present artifacts, ask the user, install skills or start subagents. */
export class SubagentGuard implements ToolGuard {
  canActivate({ call, tool, context }: ToolCallScope): void {
    if (!context.isSubagent) return;
    if (SUBAGENT_FORBIDDEN_TOOL_NAMES.has(call.name) || tool?.metadata.forbiddenForSubagents === true) {
      throw ToolsErrors.forbiddenForSubagent(call.name);
    }
  }
}
