import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const SandboxErrorCode = {
  UNAVAILABLE: 'sandbox.unavailable',
  BUSY: 'sandbox.busy',
} as const;
export type SandboxErrorCode = (typeof SandboxErrorCode)[keyof typeof SandboxErrorCode];
declareErrorCodes(SandboxErrorCode);

/** Stable `sandbox.*` codes the model and clients can act on. */
export const SandboxErrors = {
  unavailable: (reason: string) =>
    new DomainError(
      'unavailable',
      SandboxErrorCode.UNAVAILABLE,
      `Commands cannot run on this deployment: ${reason}.`,
      { details: { reason } },
    ),
  busy: (scope: 'user' | 'process', limit: number) =>
    new DomainError(
      'rate_limited',
      SandboxErrorCode.BUSY,
      scope === 'user'
        ? `You already have ${limit} commands running: wait for one to end.`
        : `This worker already runs ${limit} commands: try again shortly.`,
      { details: { scope, limit }, retryAfterSeconds: 5 },
    ),
};
