import { ParseUUIDPipe } from '@nestjs/common';
import { CommonErrors } from '../errors/common.errors.js';

/**
 * `ParseUUIDPipe` for path ids: a malformed id is a validation failure like any other bad input
 * (400 `common.validation_failed` with `details.fields`), not Nest's bare 400.
 */
export function uuidParam(field = 'id'): ParseUUIDPipe {
  return new ParseUUIDPipe({
    exceptionFactory: () => CommonErrors.validationFailed([{ field, messages: [`${field} must be a UUID`] }]),
  });
}
