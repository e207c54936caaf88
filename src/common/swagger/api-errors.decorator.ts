import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '../errors/error-envelope.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed input (`common.validation_failed` with `details.fields`, unknown fields included).',
  401: 'No or invalid credentials (`auth.*`).',
  403: 'The caller lacks the role or permission.',
  404: 'Not found, or not visible to the caller.',
  409: 'Conflict with the current state.',
  413: 'Request body too large.',
  422: 'Well-formed but unacceptable (unknown reference).',
  429: 'Rate limited; see `Retry-After`.',
  503: 'A dependency is down (`common.dependency_unavailable`).',
};

/** Documents the error envelope for the listed statuses (401 and 400 are implied on authenticated routes). */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: ErrorEnvelopeDto }),
    ),
  );
}
