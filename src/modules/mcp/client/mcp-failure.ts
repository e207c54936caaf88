import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { DomainError } from '../../../common/errors/domain-error.js';
import { MCP_ERROR_CODES } from '../mcp.errors.js';
import { scrubHeaderValues } from '../servers/header-secrets.js';
import type { McpConnectionConfig } from '../servers/mcp-connection-config.js';

/** Why talking to a server failed, safe to show an admin, a model or a log line. */
export interface McpFailure {
  code: string;
  message: string;
}

const MAX_MESSAGE = 300;

/** Our own bound on connecting or listing (the server's `timeout_s`). */
export class McpTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'McpTimeoutError';
  }
}

function statusFailure(status: number, text: string): McpFailure {
  if (status === 401 || status === 403)
    return {
      code: MCP_ERROR_CODES.unauthorized,
      message: `The server refused the credentials (HTTP ${status}).`,
    };
  if (status === -1 || status >= 400)
    return {
      code: MCP_ERROR_CODES.protocolError,
      message: `The server did not answer as an MCP endpoint: ${text}`,
    };
  return { code: MCP_ERROR_CODES.connectionFailed, message: text };
}

function classify(error: unknown): McpFailure {
  if (error instanceof McpTimeoutError)
    return {
      code: MCP_ERROR_CODES.timeout,
      message: `The server did not answer within ${error.timeoutMs} ms.`,
    };
  if (error instanceof DomainError) {
    switch (error.code) {
      case 'http_safety.url_not_allowed':
        return { code: MCP_ERROR_CODES.urlNotAllowed, message: error.message };
      case 'http_safety.timeout':
        return { code: MCP_ERROR_CODES.timeout, message: error.message };
      default:
        return { code: MCP_ERROR_CODES.connectionFailed, message: error.message };
    }
  }
  if (error instanceof McpError) {
    if (error.code === (ErrorCode.RequestTimeout as number))
      return { code: MCP_ERROR_CODES.timeout, message: 'The server did not answer in time.' };
    return { code: MCP_ERROR_CODES.protocolError, message: error.message };
  }
  if (error instanceof StreamableHTTPError) return statusFailure(error.code ?? -1, error.message);
  if (error instanceof SseError) return statusFailure(error.code ?? -1, error.message);
  if (error instanceof SyntaxError || (error instanceof Error && error.name === 'ZodError'))
    return { code: MCP_ERROR_CODES.protocolError, message: 'The server sent something that is not MCP.' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: MCP_ERROR_CODES.connectionFailed, message };
}

/** The failure with every header value of the server removed and the text bounded. */
export function describeFailure(error: unknown, config: Pick<McpConnectionConfig, 'headers'>): McpFailure {
  const failure = classify(error);
  const message = scrubHeaderValues(failure.message, config.headers).replace(/\s+/g, ' ').trim();
  return {
    code: failure.code,
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
  };
}
