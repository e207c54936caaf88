import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import {
  APPROVAL_DEFAULTS,
  APPROVAL_RULE_DECISIONS,
  approvalPolicySchema,
  MAX_APPROVAL_RULES,
  type ApprovalDefault,
  type PolicyDecision,
} from '../../tools/index.js';
import { WhenPresent } from '../../../common/validation/when-present.js';
import type { ApprovalPolicyInput } from '../config/agent-config.js';
import { FitsSchema } from './config-validators.js';

// The schema's parts: each field is checked by its own part, so an error names its path.
const rulesSchema = approvalPolicySchema.shape.rules.unwrap();
const ruleSchema = rulesSchema.element;
const toolSchema = ruleSchema.shape.tool;

type ApprovalRuleInput = NonNullable<ApprovalPolicyInput['rules']>[number];

export class ApprovalRuleDto implements ApprovalRuleInput {
  @ApiProperty({
    minLength: toolSchema.minLength ?? undefined,
    maxLength: toolSchema.maxLength ?? undefined,
    example: 'mcp:github:*',
    description:
      'A tool name or a glob over it (`*` matches any run of characters); MCP tools as `mcp:<server>:<tool>`.',
  })
  @FitsSchema(toolSchema)
  tool: string;

  @ApiProperty({ enum: APPROVAL_RULE_DECISIONS })
  @FitsSchema(ruleSchema.shape.decision)
  decision: PolicyDecision;
}

/** A submitted `config.approval`: stored as sent; omitted fields mean `auto` and no rules. */
export class ApprovalPolicyDto implements ApprovalPolicyInput {
  @ApiPropertyOptional({
    enum: APPROVAL_DEFAULTS,
    default: 'auto',
    description:
      'For tools no rule matches. `auto`: commands (`execute`) and MCP tools marked `destructiveHint` ask, the rest is allowed.',
  })
  @WhenPresent()
  @FitsSchema(approvalPolicySchema.shape.default)
  default?: ApprovalDefault;

  @ApiPropertyOptional({
    type: [ApprovalRuleDto],
    maxItems: MAX_APPROVAL_RULES,
    description:
      'In order: the first rule whose pattern matches the tool decides. Base tools are always allowed.',
  })
  @WhenPresent()
  @IsArray()
  @ArrayMaxSize(MAX_APPROVAL_RULES, { message: `rules must hold at most ${MAX_APPROVAL_RULES} rules` })
  @ValidateNested({ each: true })
  @Type(() => ApprovalRuleDto)
  rules?: ApprovalRuleDto[];
}
