import { truncate } from '../../../common/text/truncate.js';
import { DomainError } from '../../../common/errors/index.js';
import { HttpSafetyErrorCode } from '../../../common/http-safety/index.js';
import { McpErrorCode } from '../mcp.errors.js';
import { scrubHeaderValues } from '../servers/header-secrets.js';
import type { McpConnectionConfig } from '../servers/mcp-connection-config.js';
import { loadedMcpClientSdk, type McpClientSdk } from './mcp-client-sdk.js';

/** Why talking to a server failed, safe to show an admin, a model or a log line. */
export interface McpFailure {
  code: McpErrorCode;
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
      code: McpErrorCode.UNAUTHORIZED,
      message: `The server refused the credentials (HTTP ${status}).`,
    };
  if (status === -1 || status >= 400)
    return {
      code: McpErrorCode.PROTOCOL_ERROR,
      message: `The server did not answer as an MCP endpoint: ${text}`,
    };
  return { code: McpErrorCode.CONNECTION_FAILED, message: text };
}

function classify(error: unknown): McpFailure {
  if (error instanceof McpTimeoutError)
    return {
      code: McpErrorCode.TIMEOUT,
      message: `The server did not answer within ${error.timeoutMs} ms.`,
    };
  if (error instanceof DomainError) {
    switch (error.code) {
      case HttpSafetyErrorCode.URL_NOT_ALLOWED:
        return { code: McpErrorCode.URL_NOT_ALLOWED, message: error.message };
      case HttpSafetyErrorCode.TIMEOUT:
        return { code: McpErrorCode.TIMEOUT, message: error.message };
      case McpErrorCode.URL_NOT_ALLOWED:
        return { code: McpErrorCode.URL_NOT_ALLOWED, message: error.message };
      case McpErrorCode.RESPONSE_TOO_LARGE:
        return { code: McpErrorCode.RESPONSE_TOO_LARGE, message: error.message };
      case McpErrorCode.TOOL_LIST_TOO_LONG:
        return { code: McpErrorCode.TOOL_LIST_TOO_LONG, message: error.message };
      default:
        return { code: McpErrorCode.CONNECTION_FAILED, message: error.message };
    }
  }
  const sdk = loadedMcpClientSdk();
  if (sdk !== null) {
    const failure = sdkFailure(sdk, error);
    if (failure !== null) return failure;
  }
  if (error instanceof SyntaxError || (error instanceof Error && error.name === 'ZodError'))
    return { code: McpErrorCode.PROTOCOL_ERROR, message: 'The server sent something that is not MCP.' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: McpErrorCode.CONNECTION_FAILED, message };
}

/** An error of the SDK's own, or null. */
function sdkFailure(sdk: McpClientSdk, error: unknown): McpFailure | null {
  if (error instanceof sdk.McpError) {
    if (error.code === (sdk.ErrorCode.RequestTimeout as number))
      return { code: McpErrorCode.TIMEOUT, message: 'The server did not answer in time.' };
    return { code: McpErrorCode.PROTOCOL_ERROR, message: error.message };
  }
  if (error instanceof sdk.StreamableHTTPError) return statusFailure(error.code ?? -1, error.message);
  if (error instanceof sdk.SseError) return statusFailure(error.code ?? -1, error.message);
  return null;
}

/** The failure with every header value of the server removed and the text bounded. */
export function describeFailure(error: unknown, config: Pick<McpConnectionConfig, 'headers'>): McpFailure {
  const failure = classify(error);
  const message = scrubHeaderValues(failure.message, config.headers).replace(/\s+/g, ' ').trim();
  return {
    code: failure.code,
    message: truncate(message, MAX_MESSAGE),
  };
}
