import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import type { ShareConfig } from '../../../common/sharing/index.js';
import { ShareConfigDto } from '../../../common/sharing/index.js';
import { WhenPresent } from '../../../common/validation/when-present.js';
import type { KbPermission } from '../access/kb-permission.js';

export class KnowledgeBaseDto {
  @ApiProperty({ format: 'uuid' }) kb_id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) owner_id: string | null;
  @ApiProperty({ type: ShareConfigDto }) share_config: ShareConfig;
  @ApiProperty({ enum: ['read', 'manage'] }) permission: KbPermission;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class KnowledgeBasePageDto {
  @ApiProperty({ type: [KnowledgeBaseDto] }) items: KnowledgeBaseDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class CreateKnowledgeBaseDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ maxLength: 2000, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ type: ShareConfigDto, description: 'Default: readable by everyone (`global`).' })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => ShareConfigDto)
  share_config?: ShareConfigDto;
}

/** Only submitted fields change. */
export class UpdateKnowledgeBaseDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @WhenPresent()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({
    type: ShareConfigDto,
    description: 'Replaces the share config; an omitted read_scope keeps the current one.',
  })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => ShareConfigDto)
  share_config?: ShareConfigDto;
}

export class ListKnowledgeBasesQueryDto extends PageQueryDto {}
