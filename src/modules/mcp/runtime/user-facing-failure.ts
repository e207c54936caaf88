import { DomainError } from '../../../common/errors/index.js';
import type { McpFailure } from '../client/mcp-failure.js';
import { McpErrorCode } from '../mcp.errors.js';

/**
 * What a run's user is told about a server that failed: a fixed sentence per code. The failure's own
 * message may quote the server's URL (whose path can hold a credential) or its response; only the
 * admin routes show it.
 */
const REASONS: Record<McpErrorCode, string> = {
  [McpErrorCode.TIMEOUT]: 'The server did not answer in time.',
  [McpErrorCode.CONNECTION_FAILED]: 'The server could not be reached.',
  [McpErrorCode.PROTOCOL_ERROR]: 'The server did not answer as an MCP server.',
  [McpErrorCode.UNAUTHORIZED]: 'The server refused the credentials it was given.',
  [McpErrorCode.URL_NOT_ALLOWED]: "The server's address is not allowed.",
  [McpErrorCode.TRANSPORT_NOT_SUPPORTED]: 'The server uses a transport this service does not support.',
  [McpErrorCode.SERVER_UNAVAILABLE]: 'The server is unavailable.',
  [McpErrorCode.RESPONSE_TOO_LARGE]: 'The server sent a response larger than allowed.',
  [McpErrorCode.TOOL_LIST_TOO_LONG]: 'The server lists more tools than allowed.',
  [McpErrorCode.NOT_FOUND]: 'The server does not exist.',
  [McpErrorCode.TOOL_NOT_FOUND]: 'The server has no such tool.',
  [McpErrorCode.SLUG_TAKEN]: 'The server is unavailable.',
  [McpErrorCode.BUILTIN_SLUG]: 'The server is unavailable.',
  [McpErrorCode.BUILTIN_IMMUTABLE]: 'The server is unavailable.',
  [McpErrorCode.TOOL_ERROR]: 'The tool failed.',
  [McpErrorCode.TOOL_DISABLED]: 'The tool is disabled.',
  [McpErrorCode.HEADER_UNREADABLE]: "The server's stored credentials cannot be read.",
  [McpErrorCode.TOOL_NAME_RESERVED]: 'The tool has the name of a tool of this service.',
  [McpErrorCode.TOOL_SCHEMA_INVALID]: 'The tool has an input schema this service cannot check.',
};

/** The reason shown in an `unavailable` event (the event names the server beside it). */
export function userFacingReason(failure: McpFailure): string {
  return REASONS[failure.code];
}

/** The tool error a failed call of a server's tool becomes: the server's slug and a reason, nothing else. */
export function userFacingCallError(slug: string, tool: string, failure: McpFailure): DomainError {
  return new DomainError(
    'unavailable',
    failure.code,
    `The MCP server "${slug}" failed: ${REASONS[failure.code]}`,
    { details: { server: slug, tool } },
  );
}
