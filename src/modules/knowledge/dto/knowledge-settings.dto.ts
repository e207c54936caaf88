import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';

export class KnowledgeSettingsDto {
  @ApiProperty({ description: 'Off: the knowledge MCP tools are unavailable (bases and files are kept).' })
  @IsBoolean()
  enabled: boolean;
}
