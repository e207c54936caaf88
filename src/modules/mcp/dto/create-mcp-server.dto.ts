import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNumber,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { WhenPresent } from '../../../common/validation/when-present.js';
import { MCP_TRANSPORTS, type McpTransport } from '../servers/mcp-server.entity.js';
import { IsHeaderMap } from './header-map.validator.js';

export const MCP_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const URL_OPTIONS = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_tld: false,
  require_host: true,
};

/** The optional fields of create and update. */
export class McpServerOptionalFieldsDto {
  @ApiPropertyOptional({ maxLength: 2000 })
  @WhenPresent()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Sent only to this server (never to a redirect target on another origin); stored encrypted.',
  })
  @WhenPresent()
  @IsHeaderMap()
  headers?: Record<string, string>;

  @ApiPropertyOptional({ default: 30, description: 'Bound on connecting and listing tools, in seconds.' })
  @WhenPresent()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.1)
  @Max(600)
  timeout_s?: number;

  @ApiPropertyOptional({
    default: 300,
    description: 'Bound on one tool call (waiting for its result), in seconds.',
  })
  @WhenPresent()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.1)
  @Max(3600)
  sse_read_timeout_s?: number;

  @ApiPropertyOptional({ type: [String] })
  @WhenPresent()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(50, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ maxLength: 200 })
  @WhenPresent()
  @IsString()
  @MaxLength(200)
  icon?: string;
}

export class CreateMcpServerDto extends McpServerOptionalFieldsDto {
  @ApiProperty({ example: 'custom-remote-mcp', maxLength: 64, description: 'Immutable.' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @Matches(MCP_SLUG_PATTERN, {
    message: 'slug must be lower-case letters and digits joined by single hyphens',
  })
  slug: string;
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiProperty({ enum: MCP_TRANSPORTS, description: '`stdio` is not supported.' })
  @IsIn(MCP_TRANSPORTS, { message: 'transport must be streamable_http or sse (stdio is not supported)' })
  transport: McpTransport;

  @ApiProperty({
    example: 'https://example.com/mcp',
    description: 'http(s) only; checked again at connect time.',
  })
  @IsString()
  @MaxLength(2000)
  @IsUrl(URL_OPTIONS, { message: 'url must be an absolute http(s) URL' })
  url: string;
}
