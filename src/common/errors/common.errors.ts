import { DomainError } from './domain-error.js';

export interface FieldError {
  field: string;
  messages: string[];
}

export const CommonErrors = {
  validationFailed: (fields: FieldError[]) =>
    new DomainError(
      'invalid',
      'common.validation_failed',
      `Invalid request: ${fields.map((f) => f.field).join(', ')}`,
      { details: { fields } },
    ),
  malformedJson: () =>
    new DomainError('invalid', 'common.malformed_json', 'The request body is not valid JSON.'),
  payloadTooLarge: (limitBytes?: number) =>
    new DomainError(
      'too_large',
      'common.payload_too_large',
      'The request body is too large.',
      limitBytes === undefined ? {} : { details: { limit_bytes: limitBytes } },
    ),
  notFound: (what: string) => new DomainError('not_found', 'common.not_found', `${what} not found.`),
  requestIdConflict: (requestId: string) =>
    new DomainError(
      'conflict',
      'common.request_id_conflict',
      'This request_id was already used with a different payload.',
      { details: { request_id: requestId } },
    ),
  concurrentUpdate: (cause?: unknown) =>
    new DomainError(
      'conflict',
      'common.concurrent_update',
      'A concurrent request changed the same data; try again.',
      { cause },
    ),
  dependencyUnavailable: (dependency: 'database' | 'redis', cause?: unknown) =>
    new DomainError(
      'unavailable',
      'common.dependency_unavailable',
      `A required service is unavailable (${dependency}); try again shortly.`,
      { details: { dependency }, cause },
    ),
  internal: () => new DomainError('internal', 'common.internal_error', 'An internal error occurred.'),
};
