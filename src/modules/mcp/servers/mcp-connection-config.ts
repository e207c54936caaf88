import { createHash } from 'node:crypto';
import type { McpTransport } from './mcp-server.entity.js';

/** Everything a connection depends on; a change of any of it is a new connection and a new tool list. */
export interface McpConnectionConfig {
  slug: string;
  transport: McpTransport;
  url: string;
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  sseReadTimeoutMs: number;
}

/**
 * The cache key of a connection config: a SHA-256 over its canonical form (header names lower-cased and
 * sorted). Header values go into the digest, never into a log line.
 */
export function connectionConfigHash(config: McpConnectionConfig): string {
  const headers = Object.entries(config.headers)
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = JSON.stringify([
    config.slug,
    config.transport,
    config.url,
    headers,
    config.timeoutMs,
    config.sseReadTimeoutMs,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
