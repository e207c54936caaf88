import { isUUID, ValidateBy } from 'class-validator';

const MAX_IDS = 500;

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

export const IsShareScopeOrNull = () =>
  ValidateBy(
    {
      name: 'isShareScope',
      validator: { validate: (value: unknown) => value === null || isShareScope(value) },
    },
    { message: '$property must be null or a scope {level: global|department|users, …} with unique uuids' },
  );
