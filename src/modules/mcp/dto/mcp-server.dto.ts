import { McpErrorCode } from '../mcp.errors.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MCP_SOURCES, MCP_TRANSPORTS } from '../servers/mcp-server.entity.js';

/** What a normal user sees of an enabled server. */
export class McpServerSummaryDto {
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: String, nullable: true }) icon: string | null;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty() enabled: boolean;
}

/** The full record (admins); header values are redacted. */
export class McpServerDto extends McpServerSummaryDto {
  @ApiProperty({
    enum: [...MCP_TRANSPORTS, 'stdio'],
    description: '`stdio` only on legacy rows, which stay disabled.',
  })
  transport: string;

  @ApiProperty() url: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Header names with redacted values; send a redacted value back to keep the stored one.',
  })
  headers: Record<string, string>;

  @ApiProperty() timeout_s: number;
  @ApiProperty() sse_read_timeout_s: number;
  @ApiProperty({ type: [String] }) disabled_tools: string[];
  @ApiProperty({ enum: MCP_SOURCES }) source: string;
  @ApiProperty({ type: String, nullable: true }) created_by: string | null;
  @ApiProperty({ type: String, nullable: true }) updated_by: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class McpServerListDto {
  @ApiProperty({
    description:
      'Admins get `McpServerDto` items (every server); users `McpServerSummaryDto` (enabled only).',
    type: [McpServerDto],
  })
  items: (McpServerDto | McpServerSummaryDto)[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class McpToolAnnotationsDto {
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() readOnlyHint?: boolean;
  @ApiPropertyOptional() destructiveHint?: boolean;
  @ApiPropertyOptional() idempotentHint?: boolean;
  @ApiPropertyOptional() openWorldHint?: boolean;
}

export class McpToolDto {
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) input_schema: Record<string, unknown>;
  @ApiProperty() enabled: boolean;
  @ApiPropertyOptional({
    type: McpToolAnnotationsDto,
    description: "The server's MCP tool annotations, as given.",
  })
  annotations?: Record<string, unknown>;
}

export class McpToolListDto {
  @ApiProperty({ type: [McpToolDto] }) items: McpToolDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class McpTestToolDto {
  @ApiProperty() name: string;
  @ApiProperty() description: string;
}

export class McpTestErrorDto {
  @ApiProperty({ example: McpErrorCode.CONNECTION_FAILED }) code: string;
  @ApiProperty() message: string;
}

export class McpTestResultDto {
  @ApiProperty() ok: boolean;
  @ApiPropertyOptional() latency_ms?: number;
  @ApiPropertyOptional({ type: [McpTestToolDto] }) tools?: McpTestToolDto[];
  @ApiPropertyOptional({ type: McpTestErrorDto }) error?: McpTestErrorDto;
}
