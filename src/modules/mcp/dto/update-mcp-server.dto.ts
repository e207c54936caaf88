import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUrl, MaxLength, MinLength } from 'class-validator';
import { WhenPresent } from '../../../common/validation/when-present.js';
import { MCP_TRANSPORTS, type McpTransport } from '../servers/mcp-server.entity.js';
import { McpServerOptionalFieldsDto, URL_OPTIONS } from './create-mcp-server.dto.js';

/** Only submitted fields change; `slug` is immutable (sending it is an unknown field: 400). `headers` replaces the map. */
export class UpdateMcpServerDto extends McpServerOptionalFieldsDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ enum: MCP_TRANSPORTS, description: '`stdio` is not supported.' })
  @WhenPresent()
  @IsIn(MCP_TRANSPORTS, { message: 'transport must be streamable_http or sse (stdio is not supported)' })
  transport?: McpTransport;

  @ApiPropertyOptional({
    example: 'https://example.com/mcp',
    description: 'http(s) only; checked again at connect time.',
  })
  @WhenPresent()
  @IsString()
  @MaxLength(2000)
  @IsUrl(URL_OPTIONS, { message: 'url must be an absolute http(s) URL' })
  url?: string;
}
