import { DomainError, declareErrorCodes } from '../../../common/errors/index.js';

export const UsageErrorCode = {
  /** A normal user asked `GET /api/usage` for another user's calls. */
  USER_FORBIDDEN: 'usage.user_forbidden',
} as const;
export type UsageErrorCode = (typeof UsageErrorCode)[keyof typeof UsageErrorCode];
declareErrorCodes(UsageErrorCode);

export const UsageErrors = {
  userForbidden: () =>
    new DomainError(
      'forbidden',
      UsageErrorCode.USER_FORBIDDEN,
      "Only admins read other users' usage; leave user_id out or give your own.",
    ),
};
