import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { AgentConfigDto } from './agent-config.dto.js';
import { ShareConfigDto } from '../../../common/sharing/index.js';
import { WhenPresent } from '../../../common/validation/when-present.js';

/** Only submitted fields change; fields of `config` the caller may not edit are ignored. */
export class UpdateAgentDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ maxLength: 2000, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ type: AgentConfigDto })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  config?: AgentConfigDto;

  @ApiPropertyOptional({ type: ShareConfigDto, description: 'Replaces the share config.' })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => ShareConfigDto)
  share_config?: ShareConfigDto;
}
