import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const ArtifactsErrorCode = declareErrorCodes({
  PATH_REFUSED: 'artifacts.path_refused',
} as const);
export type ArtifactsErrorCode = (typeof ArtifactsErrorCode)[keyof typeof ArtifactsErrorCode];

export const ArtifactsErrors = {
  /** A path `present_artifacts` cannot show; `reason` tells the model why. */
  pathRefused: (path: string, reason: string, message: string) =>
    new DomainError('unprocessable', ArtifactsErrorCode.PATH_REFUSED, message, { details: { path, reason } }),
};
