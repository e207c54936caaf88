import type { ManagedUser, Role } from '../../api/types';

/** The department the service puts an account in when it names none. */
export const DEFAULT_DEPARTMENT = 'default';

/**
 * What the caller may change on an account, as the service rules it: only a superadmin grants admin
 * or superadmin and changes an admin's account. The console hides what would only earn a 403.
 */
export function grantableRoles(caller: Role | undefined): Role[] {
  return caller === 'superadmin' ? ['user', 'admin', 'superadmin'] : ['user'];
}

export function canManage(caller: Role | undefined, target: Pick<ManagedUser, 'role'>): boolean {
  if (caller === 'superadmin') return true;
  return caller === 'admin' && target.role === 'user';
}

/** What an admin changes on an account from its row. */
export type UserChanges = { disabled?: boolean; role?: Role; department_id?: string };

/** How many accounts each department holds, for the departments list. */
export function membersByDepartment(users: Pick<ManagedUser, 'department_id'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const user of users) counts.set(user.department_id, (counts.get(user.department_id) ?? 0) + 1);
  return counts;
}
