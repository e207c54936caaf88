import type {
  NextStep,
  ToolCallResult,
  ToolCallScope,
  ToolGuard,
  ToolInterceptor,
} from '../tool-call-scope.js';

/** Runs the guards in order; the first refusal stops the call before the handler. */
export class GuardsInterceptor implements ToolInterceptor {
  constructor(private readonly guards: readonly ToolGuard[]) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    for (const guard of this.guards) await guard.canActivate(scope);
    return next();
  }
}
