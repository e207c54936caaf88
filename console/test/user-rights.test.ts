import { describe, expect, it } from 'vitest';
import { canManage, grantableRoles, membersByDepartment } from '../src/pages/users/user-rights';

describe('user rights in the console', () => {
  it('offers admin and superadmin roles to a superadmin only', () => {
    expect(grantableRoles('superadmin')).toEqual(['user', 'admin', 'superadmin']);
    expect(grantableRoles('admin')).toEqual(['user']);
    expect(grantableRoles(undefined)).toEqual(['user']);
  });

  it("lets an admin change users' accounts but not another admin's", () => {
    expect(canManage('admin', { role: 'user' })).toBe(true);
    expect(canManage('admin', { role: 'admin' })).toBe(false);
    expect(canManage('admin', { role: 'superadmin' })).toBe(false);
    expect(canManage('superadmin', { role: 'admin' })).toBe(true);
    expect(canManage('user', { role: 'user' })).toBe(false);
  });

  it('counts the accounts of each department', () => {
    const counts = membersByDepartment([
      { department_id: 'a' },
      { department_id: 'b' },
      { department_id: 'a' },
    ]);
    expect([...counts]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});
