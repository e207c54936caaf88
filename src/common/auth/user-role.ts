export const USER_ROLES = ['user', 'admin', 'superadmin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

const RANK: Record<UserRole, number> = { user: 0, admin: 1, superadmin: 2 };

/** Roles are ordered: a superadmin may do what an admin may, an admin what a user may. */
export function roleAtLeast(role: UserRole, required: UserRole): boolean {
  return RANK[role] >= RANK[required];
}
