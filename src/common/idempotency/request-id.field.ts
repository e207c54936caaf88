import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { WhenPresent } from '../validation/when-present.js';

/** The optional `request_id` idempotency key of creating POSTs (`docs/api.md` "Idempotency"). */
export const RequestIdField = () =>
  applyDecorators(
    ApiPropertyOptional({
      description: 'Idempotency key: a replay with the same payload returns the first result.',
    }),
    WhenPresent(),
    IsString(),
    Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'request_id must be 1-64 letters, digits or ._:-' }),
  );
