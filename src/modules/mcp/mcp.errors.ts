import { DomainError } from '../../common/errors/domain-error.js';

/** Stable error codes of the MCP module (API.md "MCP servers"). */
export const MCP_ERROR_CODES = {
  notFound: 'mcp.server_not_found',
  toolNotFound: 'mcp.tool_not_found',
  slugTaken: 'mcp.slug_taken',
  builtinSlug: 'mcp.builtin_slug',
  builtinImmutable: 'mcp.builtin_immutable',
  urlNotAllowed: 'mcp.url_not_allowed',
  transportNotSupported: 'mcp.transport_not_supported',
  serverUnavailable: 'mcp.server_unavailable',
  timeout: 'mcp.timeout',
  connectionFailed: 'mcp.connection_failed',
  protocolError: 'mcp.protocol_error',
  unauthorized: 'mcp.unauthorized',
  toolError: 'mcp.tool_error',
  toolDisabled: 'mcp.tool_disabled',
  headerUnreadable: 'mcp.header_unreadable',
} as const;

export type McpErrorCode = (typeof MCP_ERROR_CODES)[keyof typeof MCP_ERROR_CODES];

export const McpErrors = {
  /** Also for callers who may not see the record. */
  notFound: (slug: string) =>
    new DomainError('not_found', MCP_ERROR_CODES.notFound, `No MCP server "${slug}".`, { details: { slug } }),
  toolNotFound: (slug: string, tool: string) =>
    new DomainError(
      'not_found',
      MCP_ERROR_CODES.toolNotFound,
      `The MCP server "${slug}" has no tool "${tool}".`,
      {
        details: { slug, tool },
      },
    ),
  slugTaken: (slug: string) =>
    new DomainError('conflict', MCP_ERROR_CODES.slugTaken, `An MCP server "${slug}" already exists.`, {
      details: { slug },
    }),
  builtinSlug: (slug: string) =>
    new DomainError(
      'conflict',
      MCP_ERROR_CODES.builtinSlug,
      `"${slug}" is reserved for a builtin MCP server.`,
      {
        details: { slug },
      },
    ),
  builtinImmutable: (slug: string) =>
    new DomainError(
      'forbidden',
      MCP_ERROR_CODES.builtinImmutable,
      `The builtin MCP server "${slug}" is defined in code: only its status and tool switches can change.`,
      { details: { slug } },
    ),
  urlNotAllowed: (url: string, reason: string) =>
    new DomainError('invalid', MCP_ERROR_CODES.urlNotAllowed, `The URL ${url} is not allowed (${reason}).`, {
      details: { url, reason },
    }),
  transportNotSupported: (slug: string, transport: string) =>
    new DomainError(
      'conflict',
      MCP_ERROR_CODES.transportNotSupported,
      `The MCP server "${slug}" uses the unsupported transport "${transport}"; migrate it to streamable_http or sse.`,
      { details: { slug, transport } },
    ),
  /** Connecting or listing failed for a route that needs the server's tools now. */
  serverUnavailable: (slug: string, failure: { code: string; message: string }) =>
    new DomainError(
      'unavailable',
      MCP_ERROR_CODES.serverUnavailable,
      `The MCP server "${slug}" is unavailable.`,
      {
        details: { slug, reason: failure },
      },
    ),
  toolError: (tool: string, text: string) =>
    new DomainError(
      'unprocessable',
      MCP_ERROR_CODES.toolError,
      text === '' ? `The tool "${tool}" failed.` : text,
      {
        details: { tool },
      },
    ),
  toolDisabled: (slug: string, tool: string) =>
    new DomainError(
      'forbidden',
      MCP_ERROR_CODES.toolDisabled,
      `The tool "${tool}" of "${slug}" is disabled.`,
      {
        details: { slug, tool },
      },
    ),
};
