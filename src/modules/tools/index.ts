// The tools module's front door: what other modules may use. Everything else is internal.
import { ToolCallEntity } from './execution/audit/tool-call.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const TOOLS_ENTITIES = [ToolCallEntity];

export { ToolsModule } from './tools.module.js';
export { ToolsErrors, RunAuthorizationRevokedError } from './tools.errors.js';
export { AgentTool } from './registry/agent-tool.decorator.js';
export { ToolRegistry } from './registry/tool-registry.js';
export type { RegisteredTool } from './registry/tool-registry.js';
export type { ToolAvailability } from './registry/tool-metadata.js';
export { argsJsonSchema } from './registry/args-json-schema.js';
export { JsonSchemaArgs } from './registry/json-schema-args.js';
export { ToolSchemaCompiler } from './registry/tool-schema-compiler.js';
export type { CompiledToolSchema } from './registry/tool-schema-compiler.js';
export {
  BASE_TOOL_NAMES,
  SUBAGENT_FORBIDDEN_TOOL_NAMES,
  SUBAGENT_TOOL_NAMES,
} from './registry/base-tools.js';
export { ToolExecutor } from './execution/tool-executor.js';
export { ToolEvents } from './execution/tool-event-sink.js';
export { ToolResourceAuthorizers } from './execution/tool-resource-authorizers.js';
export { LargeResultOffloader } from './execution/large-result-offloader.js';
export type { LargeResultStore, ToolResultToOffload } from './execution/large-result-offloader.js';
export type { ToolResourceAuthorizer } from './execution/tool-resource-authorizer.js';
export type { ToolCallResult } from './execution/tool-call-scope.js';
export type {
  RunToolContext,
  ToolCaller,
  ToolExecutionContext,
  ToolInvocation,
  ToolOutput,
} from './execution/tool-execution-context.js';
export {
  approvalPolicySchema,
  DEFAULT_APPROVAL_POLICY,
  MAX_APPROVAL_RULES,
  APPROVAL_DEFAULTS,
  APPROVAL_RULE_DECISIONS,
} from './approval/approval-policy.js';
export type { ApprovalPolicy, ApprovalDefault, PolicyDecision } from './approval/approval-policy.js';
export { ApprovalDecider } from './approval/approval-decider.js';
export { approvalName } from './approval/tool-side-effects.js';
export { USER_DECISIONS } from './approval/run-approval.js';
export type { RunApproval, UserApprovalDecision, UserDecisionKind } from './approval/run-approval.js';
export type { CallAssessment } from './execution/tool-executor.js';
