import { ToolsErrors } from '../../tools.errors.js';
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';

/**
 * The model may only call what it was shown in this turn: a tool hidden by skill gating and called by
 * name anyway is refused (the reference implementation executes it).
 */
export class VisibleThisTurnGuard implements ToolGuard {
  canActivate({ call, context }: ToolCallScope): void {
    if (!context.visibleTools.has(call.name)) throw ToolsErrors.notVisible(call.name);
  }
}
