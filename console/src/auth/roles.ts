import type { Role } from '../api/types';

const RANK: Record<Role, number> = { user: 0, admin: 1, superadmin: 2 };

/** Roles are ordered user < admin < superadmin: a page for admins admits superadmins too. */
export function hasRole(role: Role | undefined, needed: Role | undefined): boolean {
  if (!needed) return true;
  return role !== undefined && RANK[role] >= RANK[needed];
}
