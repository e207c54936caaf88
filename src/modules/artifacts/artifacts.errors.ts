import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const ArtifactsErrorCode = {
  PATH_REFUSED: 'artifacts.path_refused',
} as const;
export type ArtifactsErrorCode = (typeof ArtifactsErrorCode)[keyof typeof ArtifactsErrorCode];
declareErrorCodes(ArtifactsErrorCode);

export const ArtifactsErrors = {
  /** A path `present_artifacts` cannot show; `reason` tells the model why. */
  pathRefused: (path: string, reason: string, message: string) =>
    new DomainError('unprocessable', ArtifactsErrorCode.PATH_REFUSED, message, { details: { path, reason } }),
};
