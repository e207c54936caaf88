import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

/** Stable error codes of the MCP module (`docs/api.md` "MCP servers"). */
export const McpErrorCode = {
  NOT_FOUND: 'mcp.server_not_found',
  TOOL_NOT_FOUND: 'mcp.tool_not_found',
  SLUG_TAKEN: 'mcp.slug_taken',
  BUILTIN_SLUG: 'mcp.builtin_slug',
  BUILTIN_IMMUTABLE: 'mcp.builtin_immutable',
  URL_NOT_ALLOWED: 'mcp.url_not_allowed',
  TRANSPORT_NOT_SUPPORTED: 'mcp.transport_not_supported',
  SERVER_UNAVAILABLE: 'mcp.server_unavailable',
  TIMEOUT: 'mcp.timeout',
  CONNECTION_FAILED: 'mcp.connection_failed',
  PROTOCOL_ERROR: 'mcp.protocol_error',
  UNAUTHORIZED: 'mcp.unauthorized',
  TOOL_ERROR: 'mcp.tool_error',
  TOOL_DISABLED: 'mcp.tool_disabled',
  HEADER_UNREADABLE: 'mcp.header_unreadable',
  /** An `unavailable` code: a server's tool named like a tool of this service, left out of the run. */
  TOOL_NAME_RESERVED: 'mcp.tool_name_reserved',
  /** An `unavailable` code: a server's tool whose input schema cannot be checked, left out of the run. */
  TOOL_SCHEMA_INVALID: 'mcp.tool_schema_invalid',
  RESPONSE_TOO_LARGE: 'mcp.response_too_large',
  TOOL_LIST_TOO_LONG: 'mcp.tool_list_too_long',
} as const;
declareErrorCodes(McpErrorCode);

export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];

/** What a connection test can report in `error.code`. */
export const MCP_TEST_FAILURE_CODES = [
  McpErrorCode.TIMEOUT,
  McpErrorCode.CONNECTION_FAILED,
  McpErrorCode.PROTOCOL_ERROR,
  McpErrorCode.UNAUTHORIZED,
  McpErrorCode.URL_NOT_ALLOWED,
  McpErrorCode.TRANSPORT_NOT_SUPPORTED,
  McpErrorCode.RESPONSE_TOO_LARGE,
  McpErrorCode.TOOL_LIST_TOO_LONG,
] as const;

export const McpErrors = {
  /** Also for callers who may not see the record. */
  notFound: (slug: string) =>
    new DomainError('not_found', McpErrorCode.NOT_FOUND, `No MCP server "${slug}".`, { details: { slug } }),
  toolNotFound: (slug: string, tool: string) =>
    new DomainError(
      'not_found',
      McpErrorCode.TOOL_NOT_FOUND,
      `The MCP server "${slug}" has no tool "${tool}".`,
      {
        details: { slug, tool },
      },
    ),
  slugTaken: (slug: string) =>
    new DomainError('conflict', McpErrorCode.SLUG_TAKEN, `An MCP server "${slug}" already exists.`, {
      details: { slug },
    }),
  builtinSlug: (slug: string) =>
    new DomainError(
      'conflict',
      McpErrorCode.BUILTIN_SLUG,
      `"${slug}" is reserved for a builtin MCP server.`,
      {
        details: { slug },
      },
    ),
  builtinImmutable: (slug: string) =>
    new DomainError(
      'forbidden',
      McpErrorCode.BUILTIN_IMMUTABLE,
      `The builtin MCP server "${slug}" is defined in code: only its status and tool switches can change.`,
      { details: { slug } },
    ),
  urlNotAllowed: (url: string, reason: string) =>
    new DomainError('invalid', McpErrorCode.URL_NOT_ALLOWED, `The URL ${url} is not allowed (${reason}).`, {
      details: { url, reason },
    }),
  transportNotSupported: (slug: string, transport: string) =>
    new DomainError(
      'conflict',
      McpErrorCode.TRANSPORT_NOT_SUPPORTED,
      `The MCP server "${slug}" uses the unsupported transport "${transport}"; migrate it to streamable_http or sse.`,
      { details: { slug, transport } },
    ),
  /** Connecting or listing failed for a route that needs the server's tools now. */
  serverUnavailable: (slug: string, failure: { code: string; message: string }) =>
    new DomainError(
      'unavailable',
      McpErrorCode.SERVER_UNAVAILABLE,
      `The MCP server "${slug}" is unavailable.`,
      {
        details: { slug, reason: failure },
      },
    ),
  toolError: (tool: string, text: string) =>
    new DomainError(
      'unprocessable',
      McpErrorCode.TOOL_ERROR,
      text === '' ? `The tool "${tool}" failed.` : text,
      {
        details: { tool },
      },
    ),
  /** A server's response (one event of a stream) passed MCP_MAX_RESPONSE_BYTES. */
  responseTooLarge: (slug: string, limitBytes: number) =>
    new DomainError(
      'too_large',
      McpErrorCode.RESPONSE_TOO_LARGE,
      `The MCP server "${slug}" sent a response over ${limitBytes} bytes.`,
      { details: { slug, limit_bytes: limitBytes } },
    ),
  /** A tool list longer than a run may take (pages or tools). */
  toolListTooLong: (slug: string, limit: { pages?: number; tools?: number }) =>
    new DomainError(
      'unprocessable',
      McpErrorCode.TOOL_LIST_TOO_LONG,
      limit.pages === undefined
        ? `The MCP server "${slug}" lists more than ${limit.tools} tools.`
        : `The MCP server "${slug}" lists tools over more than ${limit.pages} pages.`,
      { details: { slug, ...limit } },
    ),
  toolDisabled: (slug: string, tool: string) =>
    new DomainError('forbidden', McpErrorCode.TOOL_DISABLED, `The tool "${tool}" of "${slug}" is disabled.`, {
      details: { slug, tool },
    }),
};
