import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { WhenPresent } from '../../../common/validation/when-present.js';
import { isUUID } from 'class-validator';
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

function uniqueUuids(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length <= MAX_IDS &&
    value.every((id) => typeof id === 'string' && isUUID(id)) &&
    new Set(value).size === value.length
  );
}

/** `{level:"global"}`, `{level:"department", department_ids}` or `{level:"users", user_ids}`, nothing more. */
export function isShareScope(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const scope = value as Record<string, unknown>;
  const keys = Object.keys(scope).sort().join(',');
  switch (scope.level) {
    case 'global':
      return keys === 'level';
    case 'department':
      return keys === 'department_ids,level' && uniqueUuids(scope.department_ids);
    case 'users':
      return keys === 'level,user_ids' && uniqueUuids(scope.user_ids);
    default:
      return false;
  }
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

export const IsShareScopeOrNull = () =>
  ValidateBy(
    {
      name: 'isShareScope',
      validator: { validate: (value: unknown) => value === null || isShareScope(value) },
    },
    { message: '$property must be null or a scope {level: global|department|users, …} with unique uuids' },
  );
