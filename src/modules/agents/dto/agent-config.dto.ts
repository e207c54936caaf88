import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import {
  MAX_EXECUTION_STEPS_LIMIT,
  type AgentConfigInput,
  type ResourceSelection,
} from '../config/agent-config.js';
import { WhenPresent } from '../../../common/validation/when-present.js';
import { ApprovalPolicyDto } from './approval-policy.dto.js';
import { ResourceSelectionField } from './config-validators.js';

/** A submitted config: every field optional (create fills defaults, update keeps saved values); no other keys. */
export class AgentConfigDto implements AgentConfigInput {
  @ApiPropertyOptional({ maxLength: 100_000 })
  @WhenPresent()
  @IsString()
  @MaxLength(100_000)
  system_prompt?: string;

  @ApiPropertyOptional({ description: 'Defaults to DEFAULT_MODEL.' })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  model?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_EXECUTION_STEPS_LIMIT, description: 'Admins only.' })
  @WhenPresent()
  @IsInt()
  @Min(1)
  @Max(MAX_EXECUTION_STEPS_LIMIT)
  max_execution_steps?: number;

  @ResourceSelectionField('Builtin tool ids, default "all".')
  tools?: ResourceSelection;

  @ResourceSelectionField('Knowledge base ids, default "all".')
  knowledges?: ResourceSelection;

  @ResourceSelectionField('Shared skill slugs, default "all".')
  skills?: ResourceSelection;

  @ResourceSelectionField('Subagent slugs, default ["general-purpose"].')
  subagents?: ResourceSelection;

  @ResourceSelectionField('MCP server slugs, default [].')
  mcps?: ResourceSelection;

  @ResourceSelectionField('Skills preloaded in full, among the selected skills; default [].')
  preload_skills?: ResourceSelection;

  @ApiPropertyOptional({
    type: ApprovalPolicyDto,
    description:
      'Which tool calls ask a person first or are refused; absent means `{"default":"auto","rules":[]}`. A PATCH replaces it whole.',
  })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => ApprovalPolicyDto)
  approval?: ApprovalPolicyDto;
}
