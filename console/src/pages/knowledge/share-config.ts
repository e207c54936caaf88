import type { Role, ShareConfig, ShareScope } from '../../api/types';

/** A scope as the form edits it: `none` is the API's `null` (nobody beyond the owner). */
export type ScopeLevel = 'none' | 'global' | 'department' | 'users';

export const SCOPE_LEVELS: readonly ScopeLevel[] = ['none', 'global', 'department', 'users'];

export interface ScopeForm {
  level: ScopeLevel;
  departmentIds: string[];
  userIds: string[];
}

export interface ShareForm {
  read: ScopeForm;
  manage: ScopeForm;
}

export type ScopeName = keyof ShareForm;

/** What a new knowledge base gets when nothing is chosen (the API's default: readable by everyone). */
export const DEFAULT_SHARE_CONFIG: ShareConfig = {
  version: 2,
  read_scope: { level: 'global' },
  manage_scope: null,
};

/** The service refuses `global` and `department` from a normal user: they may only name users. */
export function levelAllowed(role: Role | undefined, level: ScopeLevel): boolean {
  return role === 'admin' || role === 'superadmin' || level === 'none' || level === 'users';
}

export function scopeToForm(scope: ShareScope | null): ScopeForm {
  if (scope === null) return { level: 'none', departmentIds: [], userIds: [] };
  switch (scope.level) {
    case 'global':
      return { level: 'global', departmentIds: [], userIds: [] };
    case 'department':
      return { level: 'department', departmentIds: [...scope.department_ids], userIds: [] };
    case 'users':
      return { level: 'users', departmentIds: [], userIds: [...scope.user_ids] };
  }
}

export function shareConfigToForm(config: ShareConfig): ShareForm {
  return { read: scopeToForm(config.read_scope), manage: scopeToForm(config.manage_scope) };
}

/** Only the ids of the chosen level are sent; duplicates are dropped (the service refuses them). */
export function formToScope(form: ScopeForm): ShareScope | null {
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

export function formToShareConfig(form: ShareForm): ShareConfig {
  return { version: 2, read_scope: formToScope(form.read), manage_scope: formToScope(form.manage) };
}

const unique = (ids: string[]) => [...new Set(ids)];

export type ShareProblem =
  | { scope: ScopeName; kind: 'levelForbidden'; level: ScopeLevel }
  | { scope: ScopeName; kind: 'noDepartments' }
  | { scope: ScopeName; kind: 'noUsers' };

/**
 * What the form can tell before asking the service: a level the role may not use (unless it is the one
 * already saved, which a manager may leave as it is), or a department or user level with nobody
 * chosen. Whether the manage scope lies inside the read scope needs users'
 * departments: the service decides that (422) and its message is shown.
 */
export function shareFormProblems(
  form: ShareForm,
  role: Role | undefined,
  saved: ShareForm | null = null,
): ShareProblem[] {
  const problems: ShareProblem[] = [];
  for (const scope of ['read', 'manage'] as const) {
    const { level, departmentIds, userIds } = form[scope];
    if (!levelAllowed(role, level) && level !== saved?.[scope].level)
      problems.push({ scope, kind: 'levelForbidden', level });
    if (level === 'department' && departmentIds.length === 0) problems.push({ scope, kind: 'noDepartments' });
    if (level === 'users' && userIds.length === 0) problems.push({ scope, kind: 'noUsers' });
  }
  return problems;
}

function sameScope(a: ShareScope | null, b: ShareScope | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.level !== b.level) return false;
  const ids = (scope: ShareScope) =>
    scope.level === 'department' ? scope.department_ids : scope.level === 'users' ? scope.user_ids : [];
  const left = [...ids(a)].sort();
  const right = [...ids(b)].sort();
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

export function sameShareConfig(a: ShareConfig, b: ShareConfig): boolean {
  return sameScope(a.read_scope, b.read_scope) && sameScope(a.manage_scope, b.manage_scope);
}

/** A scope as a list line says it: who, by name where the names are known. */
export type ScopeSummary =
  | { kind: 'none' }
  | { kind: 'global' }
  | { kind: 'departments'; names: string[] }
  | { kind: 'users'; names: string[]; others: number };

export interface KnownNames {
  departments: ReadonlyMap<string, string>;
  users: ReadonlyMap<string, string>;
}

/** Unknown departments show their id; users a normal user cannot look up are counted as "others". */
export function summarizeScope(scope: ShareScope | null, known: KnownNames): ScopeSummary {
  if (scope === null) return { kind: 'none' };
  switch (scope.level) {
    case 'global':
      return { kind: 'global' };
    case 'department':
      return {
        kind: 'departments',
        names: scope.department_ids.map((id) => known.departments.get(id) ?? id),
      };
    case 'users': {
      const names = scope.user_ids.flatMap((id) => known.users.get(id) ?? []);
      return { kind: 'users', names, others: scope.user_ids.length - names.length };
    }
  }
}

/** The body of a PATCH: only what changed, so a manager who may not use the current scope can still rename. */
export function kbUpdateBody(
  current: { name: string; description: string; share_config: ShareConfig },
  next: { name: string; description: string; share_config: ShareConfig },
): { name?: string; description?: string; share_config?: ShareConfig } | null {
  const body: { name?: string; description?: string; share_config?: ShareConfig } = {};
  if (next.name !== current.name) body.name = next.name;
  if (next.description !== current.description) body.description = next.description;
  if (!sameShareConfig(current.share_config, next.share_config)) body.share_config = next.share_config;
  return Object.keys(body).length === 0 ? null : body;
}
