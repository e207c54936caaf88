import { AuthErrorCode } from '../../common/auth/auth.errors.js';
import { CommonErrorCode, DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const ApiKeysErrorCode = {
  REPLAY_UNAVAILABLE: 'api_keys.replay_unavailable',
  REVOKED: 'api_keys.revoked',
  NOT_FOUND: 'api_keys.not_found',
} as const;
export type ApiKeysErrorCode = (typeof ApiKeysErrorCode)[keyof typeof ApiKeysErrorCode];
declareErrorCodes(ApiKeysErrorCode);

export const AuthErrors = {
  missingCredentials: () =>
    new DomainError(
      'unauthenticated',
      AuthErrorCode.MISSING_CREDENTIALS,
      'Send `Authorization: Bearer <token or API key>`.',
    ),
  invalidCredentials: () =>
    new DomainError('unauthenticated', AuthErrorCode.INVALID_CREDENTIALS, 'Wrong username or password.'),
  invalidToken: () =>
    new DomainError('unauthenticated', AuthErrorCode.INVALID_TOKEN, 'The token is invalid or expired.'),
  tokenRevoked: () =>
    new DomainError(
      'unauthenticated',
      AuthErrorCode.TOKEN_REVOKED,
      "The token was issued before the account's password, role or status changed; log in again.",
    ),
  invalidApiKey: () =>
    new DomainError('unauthenticated', AuthErrorCode.INVALID_API_KEY, 'The API key is not valid.'),
  apiKeyRevoked: () =>
    new DomainError('unauthenticated', AuthErrorCode.API_KEY_REVOKED, 'The API key was revoked.'),
  apiKeyExpired: () =>
    new DomainError('unauthenticated', AuthErrorCode.API_KEY_EXPIRED, 'The API key has expired.'),
  accountDisabled: () =>
    new DomainError('unauthenticated', AuthErrorCode.ACCOUNT_DISABLED, 'This account is disabled.'),
  forbidden: (required: string) =>
    new DomainError('forbidden', AuthErrorCode.FORBIDDEN, `This requires the ${required} role.`, {
      details: { required_role: required },
    }),
  tooManyLoginAttempts: (retryAfterSeconds: number) =>
    new DomainError(
      'rate_limited',
      AuthErrorCode.TOO_MANY_ATTEMPTS,
      'Too many failed logins; try again later.',
      {
        retryAfterSeconds,
        details: { retry_after_seconds: retryAfterSeconds },
      },
    ),
  replayUnavailable: (requestId: string) =>
    new DomainError(
      'conflict',
      ApiKeysErrorCode.REPLAY_UNAVAILABLE,
      'This key was made with a server secret that is no longer configured; create a new key.',
      { details: { request_id: requestId } },
    ),
  apiKeyRequestRevoked: (requestId: string) =>
    new DomainError(
      'conflict',
      ApiKeysErrorCode.REVOKED,
      'The key made with this request_id was revoked (or purged); a replay never brings it back. Use a new request_id.',
      { details: { request_id: requestId } },
    ),
  apiKeyNotFound: () => new DomainError('not_found', ApiKeysErrorCode.NOT_FOUND, 'API key not found.'),
  expiryInPast: () =>
    new DomainError('invalid', CommonErrorCode.VALIDATION_FAILED, 'Invalid request: expires_at', {
      details: { fields: [{ field: 'expires_at', messages: ['expires_at must be in the future'] }] },
    }),
};
