import { AuthErrorCode } from '../../common/auth/auth.errors.js';
import { DomainError } from '../../common/errors/index.js';

/** `/metrics` refusals: the codes every 401 of this service uses, with what the scraper must send. */
export const MetricsErrors = {
  missingToken: () =>
    new DomainError(
      'unauthenticated',
      AuthErrorCode.MISSING_CREDENTIALS,
      'Send `Authorization: Bearer <METRICS_TOKEN>`.',
    ),
  invalidToken: () =>
    new DomainError('unauthenticated', AuthErrorCode.INVALID_TOKEN, 'The metrics token is not valid.'),
};

/** Sent with every 401 of `/metrics`. */
export const METRICS_AUTHENTICATE_HEADER = 'Bearer realm="metrics"';
