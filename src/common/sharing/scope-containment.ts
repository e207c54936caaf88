import type { ShareScope } from './share-config.js';

/** Looks up the departments of users (unknown users are absent from the map). */
export type DepartmentsOfUsers = (userIds: string[]) => Promise<Map<string, string>>;

/** Whether everybody in `inner` is also in `outer` (`null` = nobody). */
export async function scopeWithin(
  inner: ShareScope | null,
  outer: ShareScope | null,
  departmentsOf: DepartmentsOfUsers,
): Promise<boolean> {
  if (inner === null) return true;
  if (outer === null) return false;
  if (outer.level === 'global') return true;
  if (inner.level === 'global') return false;
  if (outer.level === 'users') {
    return inner.level === 'users' && inner.user_ids.every((id) => outer.user_ids.includes(id));
  }
  if (inner.level === 'department') {
    return inner.department_ids.every((id) => outer.department_ids.includes(id));
  }
  const departments = await departmentsOf(inner.user_ids);
  return inner.user_ids.every((id) => {
    const department = departments.get(id);
    return department !== undefined && outer.department_ids.includes(department);
  });
}
