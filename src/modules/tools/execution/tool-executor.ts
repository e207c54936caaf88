import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { ToolRegistry, type RegisteredTool } from '../registry/tool-registry.js';
import { ToolCallAuditWriter } from './audit/tool-call-audit-writer.js';
import { DomainError } from '../../../common/errors/index.js';
import type { ApprovalVerdict } from '../approval/approval-decider.js';
import { ApprovalGuard } from './guards/approval.guard.js';
import { ArgumentsGuard } from './guards/arguments.guard.js';
import { ExecutableInRunGuard } from './guards/executable-in-run.guard.js';
import { ResourceGuard } from './guards/resource.guard.js';
import { RunAuthorizationGuard } from './guards/run-authorization.guard.js';
import { SubagentGuard } from './guards/subagent.guard.js';
import { VisibleThisTurnGuard } from './guards/visible-this-turn.guard.js';
import { AuditInterceptor } from './interceptors/audit.interceptor.js';
import { ErrorResultInterceptor } from './interceptors/error-result.interceptor.js';
import { GuardsInterceptor } from './interceptors/guards.interceptor.js';
import { LargeResultInterceptor } from './interceptors/large-result.interceptor.js';
import { MetricsInterceptor } from './interceptors/metrics.interceptor.js';
import { TimeoutInterceptor } from './interceptors/timeout.interceptor.js';
import { TracingInterceptor } from './interceptors/tracing.interceptor.js';
import { LargeResultOffloader } from './large-result-offloader.js';
import {
  ToolCallScope,
  type NextStep,
  type ToolCallResult,
  type ToolGuard,
  type ToolInterceptor,
} from './tool-call-scope.js';
import { noRuntimeCheck, type ToolCall, type ToolExecutionContext } from './tool-execution-context.js';
import { ToolMetrics } from './tool-metrics.js';
import { ToolResourceAuthorizers } from './tool-resource-authorizers.js';
import { outputToContent } from './tool-result-content.js';

/**
 * The execution boundary: every tool call, local or remote, passes the same pipeline.
 *
 *   tracing → metrics → audit → error-to-result → guards (run still authorized, not forbidden for a subagent,
 *   executable in run, visible this turn, arguments, resources, approval) → large result → timeout →
 *   handler
 *
 * Tracing, metrics and audit wrap every other stage and record in `finally`, so each call, refused or
 * ending the run, has its span and is counted and audited exactly once (the span is active while the
 * handler runs: the handler's own spans nest under it). The result is always bound to the call's tool_call_id. Only
 * `RunAuthorizationRevokedError` escapes, to end the run.
 */
@Injectable()
export class ToolExecutor {
  private readonly pipeline: readonly ToolInterceptor[];
  private readonly guards: readonly ToolGuard[];

  constructor(
    private readonly registry: ToolRegistry,
    authorizers: ToolResourceAuthorizers,
    audit: ToolCallAuditWriter,
    metrics: ToolMetrics,
    config: AppConfig,
    largeResults: LargeResultOffloader,
  ) {
    this.guards = [
      new RunAuthorizationGuard(),
      // Before "executable": a subagent's forbidden tools are not bound for it, and the refusal says why.
      new SubagentGuard(),
      new ExecutableInRunGuard(),
      new VisibleThisTurnGuard(),
      new ArgumentsGuard(),
      new ResourceGuard(authorizers),
      // Last: only a call that may run at all is decided (and asked about).
      new ApprovalGuard(),
    ];
    this.pipeline = [
      new TracingInterceptor(),
      new MetricsInterceptor(metrics),
      new AuditInterceptor(audit),
      new ErrorResultInterceptor(),
      new GuardsInterceptor(this.guards),
      new LargeResultInterceptor(largeResults),
      new TimeoutInterceptor(config.tools.defaultTimeoutMs),
    ];
  }

  async execute(call: ToolCall, context: ToolExecutionContext): Promise<ToolCallResult> {
    assertRunContextComplete(context);
    // Each call gets its own context object: what the stages keep per call may be keyed by it.
    return await this.step(new ToolCallScope(call, { ...context }, this.resolve(call, context)), 0);
  }

  /**
   * Whether the call needs a person's decision before it may run: every guard runs as it will at
   * execution, nothing else (no handler, no audit row). A call a guard refuses, or the policy allows or
   * denies, is `proceed`: executing it gives that outcome. Only a revoked authorization throws.
   */
  async assess(call: ToolCall, context: ToolExecutionContext): Promise<CallAssessment> {
    assertRunContextComplete(context);
    const scope = new ToolCallScope(call, { ...context }, this.resolve(call, context));
    scope.assessing = true;
    // The policy first: it costs microseconds, and only an `ask` needs the other guards' round trips.
    const approvalGuard = this.guards[this.guards.length - 1];
    try {
      await approvalGuard.canActivate(scope);
      const approval = scope.approval;
      if (approval === null || approval.verdict.decision !== 'ask' || approval.user !== undefined)
        return { kind: 'proceed' };
      for (const guard of this.guards) if (guard !== approvalGuard) await guard.canActivate(scope);
      return { kind: 'ask', verdict: approval.verdict, tool: scope.tool! };
    } catch (thrown) {
      if (thrown instanceof DomainError) return { kind: 'proceed' };
      throw thrown;
    }
  }

  /** The tool a call names: from the tools offered to its run, or (a direct call) from the registry. */
  private resolve(call: ToolCall, context: ToolExecutionContext): RegisteredTool | undefined {
    return context.offeredTools === undefined
      ? this.registry.get(call.name)
      : context.offeredTools.get(call.name);
  }

  private step(scope: ToolCallScope, index: number): Promise<ToolCallResult> {
    const interceptor = this.pipeline[index];
    if (interceptor === undefined) return this.invokeHandler(scope);
    const next: NextStep = () => this.step(scope, index + 1);
    return interceptor.intercept(scope, next);
  }

  private async invokeHandler(scope: ToolCallScope): Promise<ToolCallResult> {
    const tool = scope.tool!; // ExecutableInRunGuard refused unknown tools
    scope.handlerStarted = true;
    const output = await tool.handler(scope.args, {
      context: scope.context,
      toolCallId: scope.call.id,
      signal: scope.abortController.signal,
    });
    return {
      toolCallId: scope.call.id,
      name: scope.call.name,
      content: outputToContent(output),
      isError: false,
      outcome: 'ok',
      errorCode: null,
    };
  }
}

/** What `assess` learned about a call before anything ran. */
export type CallAssessment =
  { kind: 'proceed' } | { kind: 'ask'; verdict: ApprovalVerdict; tool: RegisteredTool };

/**
 * The type already requires both on a run's context; this refuses, loudly and before any stage, a
 * context that reached here around the type (a cast, plain JavaScript): no call of a run goes unchecked
 * or resolves its name from the registry. A programming error, not a tool result: the run fails.
 */
function assertRunContextComplete(context: ToolExecutionContext): void {
  if (context.verifyAuthorization === noRuntimeCheck) return;
  const missing = [
    typeof context.verifyAuthorization === 'function' ? null : 'verifyAuthorization',
    context.offeredTools ? null : 'offeredTools',
  ].filter((name) => name !== null);
  if (missing.length > 0)
    throw new Error(`tool call of run ${context.runId} refused: its context lacks ${missing.join(' and ')}`);
}
