import type { DomainError } from '../../../common/errors/index.js';
import { storableText } from '../../../common/text/storable-text.js';
import type { ToolOutput } from './tool-execution-context.js';

/**
 * A result is stored as a message, a run event and in the checkpoint: a raw NUL or unpaired surrogate
 * from any source (an MCP text, a file read past the binary sniff) becomes U+FFFD so the run goes on.
 * JSON output needs nothing: `JSON.stringify` escapes both.
 */
export function outputToContent(output: ToolOutput): string {
  return typeof output === 'string' ? storableText(output) : JSON.stringify(output);
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
