import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { SIDE_EFFECT_KINDS, type SideEffectKind } from '../approval/tool-side-effects.js';
import { TOOL_CATEGORIES, type ToolCategory } from '../registry/tool-metadata.js';

export class ToolDto {
  @ApiProperty({ description: 'Stable protocol name.' }) id: string;
  @ApiProperty() display_name: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: TOOL_CATEGORIES }) category: ToolCategory;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: String, nullable: true }) icon: string | null;
  @ApiProperty({ type: String, nullable: true }) config_guide: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the arguments.' })
  args_schema: Record<string, unknown>;
  @ApiProperty({ description: 'One of the base tools present in every normal agent graph.' }) base: boolean;
  @ApiProperty({
    enum: SIDE_EFFECT_KINDS,
    description:
      'What a call may change: nothing, the workspace, something outside the service, or a command run. ' +
      'An approval policy with `auto` asks before `execute`.',
  })
  side_effects: SideEffectKind;
  @ApiProperty() available: boolean;
  @ApiProperty({ type: String, nullable: true }) unavailable_reason: string | null;
}

export class ToolListDto {
  @ApiProperty({ type: [ToolDto] }) items: ToolDto[];
}

export class ToolListQueryDto {
  // Any string: categories grow as modules register tools, and one no tool has matches nothing.
  @ApiPropertyOptional({ example: 'builtin', description: `Known today: ${TOOL_CATEGORIES.join(', ')}.` })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  @ApiPropertyOptional({ example: '文件' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  tag?: string;
}
