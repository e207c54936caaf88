import type { UserRole } from '../auth/user-role.js';

export type ShareScope =
  | { level: 'global' }
  | { level: 'department'; department_ids: string[] }
  | { level: 'users'; user_ids: string[] };

/** Stored as-is in the `share_config` jsonb column and returned as-is (protocol names). */
export interface ShareConfig {
  version: 2;
  read_scope: ShareScope | null;
  manage_scope: ShareScope | null;
}

/** Who is asking, as far as the visibility of a shared resource (agent, skill, knowledge base) is concerned. */
export interface ShareActor {
  id: string;
  role: UserRole;
  departmentId: string;
}

/** What access decisions need to know about a shared resource. */
export interface AccessSubject {
  ownerId: string | null;
  builtin: boolean;
  shareConfig: ShareConfig;
}

export function defaultShareConfig(creatorId: string): ShareConfig {
  return { version: 2, read_scope: { level: 'users', user_ids: [creatorId] }, manage_scope: null };
}

export function inScope(actor: ShareActor, scope: ShareScope | null): boolean {
  if (scope === null) return false;
  switch (scope.level) {
    case 'global':
      return true;
    case 'department':
      return scope.department_ids.includes(actor.departmentId);
    case 'users':
      return scope.user_ids.includes(actor.id);
  }
}

/**
 * The creator always manages; so does anyone in the manage scope. Superadmins manage every resource and
 * admins the builtin ones (someone must be able to configure them; they have no creator).
 */
export function canManage(actor: ShareActor, subject: AccessSubject): boolean {
  if (actor.role === 'superadmin') return true;
  if (subject.builtin && actor.role === 'admin') return true;
  if (subject.ownerId !== null && subject.ownerId === actor.id) return true;
  return inScope(actor, subject.shareConfig.manage_scope);
}

/** The same rule as the SQL filter `scopeMemberSql` builds (see `share-scope.sql.ts`). */
export function canRead(actor: ShareActor, subject: AccessSubject): boolean {
  return canManage(actor, subject) || inScope(actor, subject.shareConfig.read_scope);
}
