import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, MaxLength } from 'class-validator';
import { SKILL_LIMITS } from '../skills-limits.js';

const MAX_CONTENT_CHARS = SKILL_LIMITS.maxTextFileBytes;

export class SkillFileQueryDto {
  @ApiProperty({ description: 'Relative path inside the skill, e.g. `SKILL.md` or `references/guide.md`' })
  @IsString()
  @MaxLength(SKILL_LIMITS.maxPathChars)
  path: string;
}

export class CreateSkillFileDto {
  @ApiProperty() @IsString() @MaxLength(SKILL_LIMITS.maxPathChars) path: string;
  @ApiProperty({ description: 'UTF-8 text' }) @IsString() @MaxLength(MAX_CONTENT_CHARS) content: string;
}

export class UpdateSkillFileDto extends CreateSkillFileDto {
  @ApiProperty({ description: 'The revision the file read returned' })
  @IsString()
  @MaxLength(128)
  revision: string;
}

const Names = () =>
  applyDecorators(IsArray(), ArrayMaxSize(100), IsString({ each: true }), MaxLength(128, { each: true }));

export class SkillDependenciesDto {
  @ApiProperty({ type: [String], description: 'Registered local tools (not the knowledge tools)' })
  @Names()
  tool_dependencies: string[];

  @ApiProperty({ type: [String], description: 'MCP server slugs (`knowledge` for the knowledge tools)' })
  @Names()
  mcp_dependencies: string[];

  @ApiProperty({ type: [String], description: 'Shared skills readable by everyone who reads this one' })
  @Names()
  skill_dependencies: string[];
}

export class SkillEnabledDto {
  @ApiProperty() @IsBoolean() enabled: boolean;
}
