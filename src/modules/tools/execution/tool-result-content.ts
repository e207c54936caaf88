import type { DomainError } from '../../../common/errors/index.js';
import type { ToolOutput } from './tool-execution-context.js';

export function outputToContent(output: ToolOutput): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
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
