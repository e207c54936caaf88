import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { AGENT_SLUG_MAX, AGENT_SLUG_MIN, AGENT_SLUG_PATTERN } from '../config/agent-slug.js';
import { AgentConfigDto } from './agent-config.dto.js';
import { ShareConfigDto } from '../../../common/sharing/index.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

export class CreateAgentDto {
  @ApiProperty({ example: 'Research assistant', maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ description: 'Generated from the name when absent (`-2`, `-3` on a clash).' })
  @WhenPresent()
  @IsString()
  @MinLength(AGENT_SLUG_MIN)
  @MaxLength(AGENT_SLUG_MAX)
  @Matches(AGENT_SLUG_PATTERN, {
    message: 'slug must be lower-case letters and digits joined by single hyphens',
  })
  slug?: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @WhenPresent()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ default: false })
  @WhenPresent()
  @IsBoolean()
  is_subagent?: boolean;

  @ApiPropertyOptional({ type: AgentConfigDto })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  config?: AgentConfigDto;

  @ApiPropertyOptional({ type: ShareConfigDto })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => ShareConfigDto)
  share_config?: ShareConfigDto;
}
