import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '../errors/error-envelope.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed input (`common.validation_failed` with `details.fields`, unknown fields included).',
  401: 'No or invalid credentials (`auth.missing_credentials`, `auth.invalid_token`, `auth.token_revoked`, `auth.invalid_api_key`, `auth.api_key_revoked`, `auth.api_key_expired`, `auth.account_disabled`).',
  403: 'The caller lacks the role or permission (`auth.forbidden`).',
  404: 'Not found, or not visible to the caller.',
  409: 'Conflict with the current state.',
  413: 'Request body too large (`common.payload_too_large`).',
  422: 'Well-formed but unacceptable (unknown reference).',
  429: 'Rate limited; see `Retry-After`.',
  503: 'A dependency is down (`common.dependency_unavailable`).',
};

/** A status, or a status with the stable error codes a route answers with it. */
export type ErrorSpec = number | [status: number, ...codes: string[]];

/** Documents the error envelope (and the codes) for the listed statuses. */
export function ApiErrors(...specs: ErrorSpec[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...specs.map((spec) => {
      const [status, ...codes] = typeof spec === 'number' ? [spec] : spec;
      const generic = DESCRIPTIONS[status] ?? 'Error';
      const description =
        codes.length === 0 ? generic : `${generic} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`;
      return ApiResponse({ status, description, type: ErrorEnvelopeDto });
    }),
  );
}
