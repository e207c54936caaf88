import { z } from 'zod';

export const APPROVAL_DEFAULTS = ['auto', 'ask', 'allow'] as const;
export const APPROVAL_RULE_DECISIONS = ['allow', 'ask', 'deny'] as const;
export const MAX_APPROVAL_RULES = 100;
export const MAX_TOOL_PATTERN_LENGTH = 200;

export type ApprovalDefault = (typeof APPROVAL_DEFAULTS)[number];
export type PolicyDecision = (typeof APPROVAL_RULE_DECISIONS)[number];

/**
 * `config.approval` of an agent: the first rule whose pattern matches the tool decides; no match →
 * `default`. Patterns are tool names or globs (`*`); MCP tools are matched as `mcp:<server>:<tool>`.
 */
export interface ApprovalPolicy {
  default: ApprovalDefault;
  rules: { tool: string; decision: PolicyDecision }[];
}

export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = { default: 'auto', rules: [] };

// Messages read after the field's name (`tool must not be empty`), as class-validator's do.
const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(', ')}` });

/** Every control character (C0, DEL and C1): a pattern is shown to people in reasons and logs. */
const CONTROL_CHARACTER = /\p{Cc}/u;

const toolPattern = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_TOOL_PATTERN_LENGTH, `must be at most ${MAX_TOOL_PATTERN_LENGTH} characters`)
  .refine((value) => !CONTROL_CHARACTER.test(value), 'must not contain control characters');

/** The stored shape, checked wherever a policy enters (agent create and update). */
export const approvalPolicySchema = z
  .object({
    default: z.enum(APPROVAL_DEFAULTS, oneOf(APPROVAL_DEFAULTS)).default('auto'),
    rules: z
      .array(
        z
          .object({
            tool: toolPattern,
            decision: z.enum(APPROVAL_RULE_DECISIONS, oneOf(APPROVAL_RULE_DECISIONS)),
          })
          .strict(),
      )
      .max(MAX_APPROVAL_RULES, `must hold at most ${MAX_APPROVAL_RULES} rules`)
      .default([]),
  })
  .strict();
