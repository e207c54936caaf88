import { ApiProperty } from '@nestjs/swagger';
import type { ShareConfig } from '../../../common/sharing/index.js';

export type SkillSource = 'builtin' | 'shared' | 'personal';

export class SkillSummaryDto {
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() version: string;
  @ApiProperty({ enum: ['builtin', 'shared', 'personal'] }) source: SkillSource;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ enum: ['read', 'manage'] }) permission: 'read' | 'manage';
  @ApiProperty({ description: 'A personal skill of the caller has this slug and is used instead' })
  shadowed_by_personal: boolean;
}

export class SkillListDto {
  @ApiProperty({ type: [SkillSummaryDto] }) items: SkillSummaryDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class SkillDto extends SkillSummaryDto {
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'null for personal skills',
  })
  share_config: ShareConfig | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The creator; null for builtin and personal skills',
  })
  owner_id: string | null;
  @ApiProperty({ description: 'Opaque; changes with every change to the skill' }) revision: string;
  @ApiProperty({ type: [String] }) tool_dependencies: string[];
  @ApiProperty({ type: [String] }) mcp_dependencies: string[];
  @ApiProperty({ type: [String] }) skill_dependencies: string[];
  @ApiProperty({ nullable: true, type: String, description: 'Agent Skills format, as written' })
  license: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Agent Skills format, as written' })
  compatibility: string | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'Agent Skills format, as written',
  })
  metadata: Record<string, unknown> | null;
  @ApiProperty({
    nullable: true,
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Agent Skills format `allowed-tools`, informational only (never widens access)',
  })
  allowed_tools: string | string[] | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class SkillTreeEntryDto {
  @ApiProperty() path: string;
  @ApiProperty() size: number;
}

export class SkillTreeDto {
  @ApiProperty() slug: string;
  @ApiProperty({ description: 'Opaque revision of the whole skill' }) revision: string;
  @ApiProperty({ type: [SkillTreeEntryDto] }) files: SkillTreeEntryDto[];
}

export class SkillFileDto {
  @ApiProperty() path: string;
  @ApiProperty() content: string;
  @ApiProperty({ description: 'Opaque; give it back to `PUT …/files` to save over this content' })
  revision: string;
}
