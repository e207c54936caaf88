import { describe, expect, it } from 'vitest';
import { hasRole } from '../src/auth/roles';

describe('hasRole', () => {
  it('orders user < admin < superadmin', () => {
    expect(hasRole('user', 'admin')).toBe(false);
    expect(hasRole('admin', 'admin')).toBe(true);
    expect(hasRole('superadmin', 'admin')).toBe(true);
    expect(hasRole('admin', 'superadmin')).toBe(false);
  });

  it('lets anyone signed in open a page that names no role, and no one without a role open one that does', () => {
    expect(hasRole('user', undefined)).toBe(true);
    expect(hasRole(undefined, 'user')).toBe(false);
  });
});
