import type { McpServerDto, McpServerSummaryDto } from '../dto/mcp-server.dto.js';
import type { McpConnectionConfig } from './mcp-connection-config.js';
import type { McpServerEntity } from './mcp-server.entity.js';
import { HeaderSecrets, type HeaderMap } from './header-secrets.js';

export function summaryOf(row: McpServerEntity): McpServerSummaryDto {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    icon: row.icon,
    tags: [...row.tags],
    enabled: row.enabled,
  };
}

/** The admin view: header names kept, values redacted. */
export function recordOf(row: McpServerEntity, headers: HeaderMap): McpServerDto {
  return {
    ...summaryOf(row),
    transport: row.transport,
    url: row.url,
    headers: HeaderSecrets.redacted(headers),
    timeout_s: row.timeoutS,
    sse_read_timeout_s: row.sseReadTimeoutS,
    disabled_tools: [...row.disabledTools],
    source: row.source,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What a connection is made from; `null` for a legacy `stdio` row, which is never run. */
export function connectionConfigOf(row: McpServerEntity, headers: HeaderMap): McpConnectionConfig | null {
  if (row.transport === 'stdio') return null;
  return {
    slug: row.slug,
    transport: row.transport,
    url: row.url,
    headers,
    timeoutMs: Math.round(row.timeoutS * 1000),
    sseReadTimeoutMs: Math.round(row.sseReadTimeoutS * 1000),
  };
}
