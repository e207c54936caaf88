// The shared error vocabulary: what modules and infrastructure may use.
export { CommonErrorCode, CommonErrors, type FieldError } from './common.errors.js';
export { DomainError, type DomainErrorOptions, type ErrorCode, type ErrorKind } from './domain-error.js';
export { declareErrorCodes, declaredErrorCodes } from './error-code-catalog.js';
export { ErrorEnvelopeDto } from './error-envelope.dto.js';
export { GlobalExceptionFilter } from './global-exception.filter.js';
export { asDependencyOutage, toDomainError } from './to-domain-error.js';
