import { declareErrorCodes } from '../errors/error-code-catalog.js';

/**
 * The `auth.*` codes: how a request's authentication or authorization failed. They sit here, not in the
 * auth module, because infrastructure names them too (the fallback for Nest's own 401/403 in
 * `to-domain-error.ts`, the Swagger defaults) and infrastructure imports no module. The auth module
 * builds its errors (`AuthErrors`) from them.
 */
export const AuthErrorCode = {
  MISSING_CREDENTIALS: 'auth.missing_credentials',
  INVALID_CREDENTIALS: 'auth.invalid_credentials',
  INVALID_TOKEN: 'auth.invalid_token',
  TOKEN_REVOKED: 'auth.token_revoked',
  INVALID_API_KEY: 'auth.invalid_api_key',
  API_KEY_REVOKED: 'auth.api_key_revoked',
  API_KEY_EXPIRED: 'auth.api_key_expired',
  ACCOUNT_DISABLED: 'auth.account_disabled',
  TOO_MANY_ATTEMPTS: 'auth.too_many_attempts',
  /** Every password check slot of the process is taken and its queue is full. */
  TOO_MANY_REQUESTS: 'auth.too_many_requests',
  /** A 401 raised by Nest itself rather than by the auth guards. */
  UNAUTHENTICATED: 'auth.unauthenticated',
  FORBIDDEN: 'auth.forbidden',
} as const;
export type AuthErrorCode = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];
declareErrorCodes(AuthErrorCode);
