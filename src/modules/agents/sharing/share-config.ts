import type { UserRole } from '../../../common/auth/user-role.js';

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

/** Who is asking, as far as agent visibility is concerned. */
export interface AgentActor {
  id: string;
  role: UserRole;
  departmentId: string;
}

/** What access decisions need to know about an agent. */
export interface AccessSubject {
  ownerId: string | null;
  builtin: boolean;
  shareConfig: ShareConfig;
}

export function defaultShareConfig(creatorId: string): ShareConfig {
  return { version: 2, read_scope: { level: 'users', user_ids: [creatorId] }, manage_scope: null };
}

export function inScope(actor: AgentActor, scope: ShareScope | null): boolean {
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
 * The creator always manages; so does anyone in the manage scope. Superadmins manage every agent and
 * admins the builtin ones (someone must be able to configure them; they have no creator).
 */
export function canManage(actor: AgentActor, agent: AccessSubject): boolean {
  if (actor.role === 'superadmin') return true;
  if (agent.builtin && actor.role === 'admin') return true;
  if (agent.ownerId !== null && agent.ownerId === actor.id) return true;
  return inScope(actor, agent.shareConfig.manage_scope);
}

/** The same rule as the SQL filter `whereReadableBy` in `agents.repository.ts`. */
export function canRead(actor: AgentActor, agent: AccessSubject): boolean {
  return canManage(actor, agent) || inScope(actor, agent.shareConfig.read_scope);
}
