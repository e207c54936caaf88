import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { AuthErrorCode } from '../auth/auth.errors.js';
import { CommonErrorCode } from '../errors/common.errors.js';
import type { ErrorCode } from '../errors/domain-error.js';
import { ErrorEnvelopeDto } from '../errors/error-envelope.dto.js';

/** A code as the descriptions show it. */
const shown = (...codes: ErrorCode[]) => codes.map((c) => `\`${c}\``).join(', ');

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: `Malformed input (${shown(CommonErrorCode.VALIDATION_FAILED)} with \`details.fields\`, unknown fields included).`,
  401: `No or invalid credentials (${shown(
    AuthErrorCode.MISSING_CREDENTIALS,
    AuthErrorCode.INVALID_TOKEN,
    AuthErrorCode.TOKEN_REVOKED,
    AuthErrorCode.INVALID_API_KEY,
    AuthErrorCode.API_KEY_REVOKED,
    AuthErrorCode.API_KEY_EXPIRED,
    AuthErrorCode.ACCOUNT_DISABLED,
  )}).`,
  403: `The caller lacks the role or permission (${shown(AuthErrorCode.FORBIDDEN)}).`,
  404: 'Not found, or not visible to the caller.',
  409: 'Conflict with the current state.',
  413: `Request body too large (${shown(CommonErrorCode.PAYLOAD_TOO_LARGE)}).`,
  422: 'Well-formed but unacceptable (unknown reference).',
  429: 'Rate limited; see `Retry-After`.',
  503: `A dependency is down (${shown(CommonErrorCode.DEPENDENCY_UNAVAILABLE)}).`,
};

/** A status's generic text, then the codes it does not name already. */
export function errorDescription(status: number, codes: readonly ErrorCode[]): string {
  const generic = ERROR_DESCRIPTIONS[status] ?? 'Error';
  const more = codes.filter((code) => !generic.includes(`\`${code}\``));
  return more.length === 0 ? generic : `${generic} Codes: ${shown(...more)}.`;
}

/** A status, or a status with the stable error codes (each module's `*ErrorCode` constants) it answers with. */
export type ErrorSpec = number | [status: number, ...codes: ErrorCode[]];

/** Documents the error envelope (and the codes) for the listed statuses. */
export function ApiErrors(...specs: ErrorSpec[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...specs.map((spec) => {
      const [status, ...codes] = typeof spec === 'number' ? [spec] : spec;
      return ApiResponse({ status, description: errorDescription(status, codes), type: ErrorEnvelopeDto });
    }),
  );
}
