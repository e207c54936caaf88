import { DomainError } from './domain-error.js';
import { declareErrorCodes } from './error-code-catalog.js';

export interface FieldError {
  field: string;
  messages: string[];
}

export const CommonErrorCode = {
  VALIDATION_FAILED: 'common.validation_failed',
  MALFORMED_JSON: 'common.malformed_json',
  PAYLOAD_TOO_LARGE: 'common.payload_too_large',
  NOT_FOUND: 'common.not_found',
  REQUEST_ID_CONFLICT: 'common.request_id_conflict',
  CONCURRENT_UPDATE: 'common.concurrent_update',
  DEPENDENCY_UNAVAILABLE: 'common.dependency_unavailable',
  INTERNAL_ERROR: 'common.internal_error',
  // What an `HttpException` raised by Nest itself (no route, wrong method, …) becomes.
  BAD_REQUEST: 'common.bad_request',
  METHOD_NOT_ALLOWED: 'common.method_not_allowed',
  CONFLICT: 'common.conflict',
  UNSUPPORTED_MEDIA_TYPE: 'common.unsupported_media_type',
  UNPROCESSABLE: 'common.unprocessable',
  RATE_LIMITED: 'common.rate_limited',
} as const;
export type CommonErrorCode = (typeof CommonErrorCode)[keyof typeof CommonErrorCode];
declareErrorCodes(CommonErrorCode);

export const CommonErrors = {
  validationFailed: (fields: FieldError[]) =>
    new DomainError(
      'invalid',
      CommonErrorCode.VALIDATION_FAILED,
      `Invalid request: ${fields.map((f) => f.field).join(', ')}`,
      { details: { fields } },
    ),
  malformedJson: () =>
    new DomainError('invalid', CommonErrorCode.MALFORMED_JSON, 'The request body is not valid JSON.'),
  payloadTooLarge: (limitBytes?: number) =>
    new DomainError(
      'too_large',
      CommonErrorCode.PAYLOAD_TOO_LARGE,
      'The request body is too large.',
      limitBytes === undefined ? {} : { details: { limit_bytes: limitBytes } },
    ),
  requestIdConflict: (requestId: string) =>
    new DomainError(
      'conflict',
      CommonErrorCode.REQUEST_ID_CONFLICT,
      'This request_id was already used with a different payload.',
      { details: { request_id: requestId } },
    ),
  concurrentUpdate: (cause?: unknown) =>
    new DomainError(
      'conflict',
      CommonErrorCode.CONCURRENT_UPDATE,
      'A concurrent request changed the same data; try again.',
      { cause },
    ),
  dependencyUnavailable: (dependency: 'database' | 'redis', cause?: unknown) =>
    new DomainError(
      'unavailable',
      CommonErrorCode.DEPENDENCY_UNAVAILABLE,
      `A required service is unavailable (${dependency}); try again shortly.`,
      { details: { dependency }, cause },
    ),
  internal: () => new DomainError('internal', CommonErrorCode.INTERNAL_ERROR, 'An internal error occurred.'),
};
