import type { Role, ShareConfig, ShareScope } from '../../api/types';

/** `none`: nobody beyond the creator (a `null` scope). */
export type ScopeLevel = 'none' | ShareScope['level'];

export interface ScopeForm {
  level: ScopeLevel;
  departmentIds: string[];
  userIds: string[];
}

export const SCOPE_LEVELS: readonly ScopeLevel[] = ['none', 'users', 'department', 'global'];

/** A normal user may only name users (the service refuses the rest with 403); admins any level. */
export function levelsFor(role: Role | undefined): ScopeLevel[] {
  return role === 'admin' || role === 'superadmin' ? [...SCOPE_LEVELS] : ['none', 'users'];
}

export function scopeForm(scope: ShareScope | null): ScopeForm {
  if (scope === null) return { level: 'none', departmentIds: [], userIds: [] };
  return {
    level: scope.level,
    departmentIds: scope.level === 'department' ? [...scope.department_ids] : [],
    userIds: scope.level === 'users' ? [...scope.user_ids] : [],
  };
}

export function scopeOf(form: ScopeForm): ShareScope | null {
  switch (form.level) {
    case 'none':
      return null;
    case 'global':
      return { level: 'global' };
    case 'department':
      return { level: 'department', department_ids: unique(form.departmentIds) };
    case 'users':
      return { level: 'users', user_ids: unique(form.userIds) };
  }
}

export function shareConfigOf(read: ScopeForm, manage: ScopeForm): ShareConfig {
  return { version: 2, read_scope: scopeOf(read), manage_scope: scopeOf(manage) };
}

const unique = (values: string[]) => [...new Set(values)];
