import type { DomainError } from '../../../common/errors/index.js';
import type { ToolOutput } from './tool-execution-context.js';

/**
 * PostgreSQL text and jsonb cannot hold U+0000, and a result is stored as a message, a run event and in
 * the checkpoint: a raw NUL from any source (an MCP text, a file read past the binary sniff) becomes
 * U+FFFD, the replacement character, so the run goes on. JSON output needs nothing: it escapes NUL.
 */
function storable(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
}

export function outputToContent(output: ToolOutput): string {
  return typeof output === 'string' ? storable(output) : JSON.stringify(output);
}

/** The content of a failed call: `{"error":{"code","message","details"?}}`. */
export function errorToContent(error: DomainError): string {
  return JSON.stringify({
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  });
}
