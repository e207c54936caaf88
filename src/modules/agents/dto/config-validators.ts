import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import type { z } from 'zod';
import { WhenPresent } from '../../../common/validation/when-present.js';
import { ALL } from '../config/agent-config.js';

const MAX_IDS = 500;
const MAX_ID_LENGTH = 200;

export function isResourceSelection(value: unknown): boolean {
  if (value === ALL) return true;
  if (!Array.isArray(value) || value.length > MAX_IDS) return false;
  const ids: unknown[] = value;
  return (
    ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_LENGTH) &&
    new Set(ids).size === ids.length
  );
}

const IsResourceSelection = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isResourceSelection', validator: { validate: isResourceSelection } },
    { message: '$property must be "all" or an array of unique non-empty strings', ...options },
  );

export const ResourceSelectionField = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      description,
      oneOf: [
        { type: 'string', enum: [ALL] },
        { type: 'array', items: { type: 'string' } },
      ],
    }),
    WhenPresent(),
    IsResourceSelection(),
  );

/**
 * A field checked by a part of a zod schema, so the limits stay where the schema defines them while
 * class-validator names the failing field by its path (`config.approval.rules.3.tool`). The message is
 * the schema's, after the field's name.
 */
export const FitsSchema = (schema: z.ZodType) =>
  ValidateBy({
    name: 'fitsSchema',
    validator: {
      validate: (value: unknown) => schema.safeParse(value).success,
      defaultMessage: ({ property, value }: ValidationArguments) =>
        `${property} ${schema.safeParse(value).error?.issues[0]?.message ?? 'is not valid'}`,
    },
  });
