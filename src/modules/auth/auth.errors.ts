import { DomainError } from '../../common/errors/domain-error.js';

export const AuthErrors = {
  missingCredentials: () =>
    new DomainError(
      'unauthenticated',
      'auth.missing_credentials',
      'Send `Authorization: Bearer <token or API key>`.',
    ),
  invalidCredentials: () =>
    new DomainError('unauthenticated', 'auth.invalid_credentials', 'Wrong username or password.'),
  invalidToken: () =>
    new DomainError('unauthenticated', 'auth.invalid_token', 'The token is invalid or expired.'),
  tokenRevoked: () =>
    new DomainError(
      'unauthenticated',
      'auth.token_revoked',
      "The token was issued before the account's password, role or status changed; log in again.",
    ),
  invalidApiKey: () =>
    new DomainError('unauthenticated', 'auth.invalid_api_key', 'The API key is not valid.'),
  apiKeyRevoked: () => new DomainError('unauthenticated', 'auth.api_key_revoked', 'The API key was revoked.'),
  apiKeyExpired: () => new DomainError('unauthenticated', 'auth.api_key_expired', 'The API key has expired.'),
  accountDisabled: () =>
    new DomainError('unauthenticated', 'auth.account_disabled', 'This account is disabled.'),
  forbidden: (required: string) =>
    new DomainError('forbidden', 'auth.forbidden', `This requires the ${required} role.`, {
      details: { required_role: required },
    }),
  tooManyLoginAttempts: (retryAfterSeconds: number) =>
    new DomainError('rate_limited', 'auth.too_many_attempts', 'Too many failed logins; try again later.', {
      retryAfterSeconds,
      details: { retry_after_seconds: retryAfterSeconds },
    }),
  replayUnavailable: (requestId: string) =>
    new DomainError(
      'conflict',
      'api_keys.replay_unavailable',
      'This key was made with a server secret that is no longer configured; create a new key.',
      { details: { request_id: requestId } },
    ),
  apiKeyRequestRevoked: (requestId: string) =>
    new DomainError(
      'conflict',
      'api_keys.revoked',
      'The key made with this request_id was revoked (or purged); a replay never brings it back. Use a new request_id.',
      { details: { request_id: requestId } },
    ),
  apiKeyNotFound: () => new DomainError('not_found', 'api_keys.not_found', 'API key not found.'),
  expiryInPast: () =>
    new DomainError('invalid', 'common.validation_failed', 'Invalid request: expires_at', {
      details: { fields: [{ field: 'expires_at', messages: ['expires_at must be in the future'] }] },
    }),
};
