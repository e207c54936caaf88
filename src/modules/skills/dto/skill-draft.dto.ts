import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ShareConfigDto } from '../../../common/sharing/index.js';

export class SkillDraftItemDto {
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() version: string;
  @ApiProperty({ type: [String] }) tool_dependencies: string[];
  @ApiProperty({ type: [String] }) mcp_dependencies: string[];
  @ApiProperty({ type: [String] }) skill_dependencies: string[];
  @ApiProperty({ type: [String], description: 'E.g. the slug is taken (a shared install gets `-v2`)' })
  warnings: string[];
}

export class SkillDraftFailureDto {
  @ApiProperty({ description: 'The SKILL.md (or misnamed skill file) in the upload' }) path: string;
  @ApiProperty({ description: 'Why that folder is not a skill' }) error: string;
  @ApiProperty({ description: 'The error code the folder alone would have met' }) code: string;
}

export class SkillDraftDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time', description: 'One hour after creation' }) expires_at: string;
  @ApiProperty({ type: [SkillDraftItemDto] }) items: SkillDraftItemDto[];
  @ApiProperty({ type: [SkillDraftFailureDto] }) failures: SkillDraftFailureDto[];
}

export class RemoteSkillDraftDto {
  @ApiProperty({ description: '`owner/repo` (GitHub) or an https URL on an allowed host' })
  @IsString()
  @MaxLength(2048)
  source: string;

  @ApiProperty({ type: [String], description: 'The skills to keep (slug, name or folder name)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  skill_names: string[];
}

export class ConfirmSkillDraftDto {
  @ApiProperty({ enum: ['personal', 'shared'], description: '`shared`: admins only' })
  @IsIn(['personal', 'shared'])
  target: 'personal' | 'shared';

  @ApiPropertyOptional({ type: [String], description: 'The draft items to install; default: all' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  slugs?: string[];

  @ApiPropertyOptional({ type: ShareConfigDto, description: 'For `shared` (default: the creator only)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ShareConfigDto)
  share_config?: ShareConfigDto;
}

export class InstalledSkillDto {
  @ApiProperty({ description: 'The slug in the draft' }) draft_slug: string;
  @ApiProperty({ description: 'The slug installed (`<slug>-v2`, … when taken)' }) slug: string;
  @ApiProperty({ type: [String] }) warnings: string[];
}

export class ConfirmedSkillDraftDto {
  @ApiProperty({ enum: ['personal', 'shared'] }) target: 'personal' | 'shared';
  @ApiProperty({ type: [InstalledSkillDto] }) installed: InstalledSkillDto[];
}
