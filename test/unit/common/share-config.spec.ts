import { scopeWithin } from '../../../src/common/sharing/scope-containment';
import { canManage, canRead, type AccessSubject } from '../../../src/common/sharing/share-config';

describe('share scopes', () => {
  const actor = { id: 'u1', role: 'user' as const, departmentId: 'd1' };
  const agent = (overrides: Partial<AccessSubject> = {}): AccessSubject => ({
    ownerId: 'owner',
    builtin: false,
    shareConfig: { version: 2, read_scope: null, manage_scope: null },
    ...overrides,
  });

  it('lets the creator manage whatever the scopes say', () => {
    expect(canManage(actor, agent({ ownerId: 'u1' }))).toBe(true);
    expect(canRead(actor, agent())).toBe(false);
  });

  it('reads by global, department and users scopes', () => {
    const read = (read_scope: AccessSubject['shareConfig']['read_scope']) =>
      canRead(actor, agent({ shareConfig: { version: 2, read_scope, manage_scope: null } }));
    expect(read({ level: 'global' })).toBe(true);
    expect(read({ level: 'department', department_ids: ['d1'] })).toBe(true);
    expect(read({ level: 'department', department_ids: ['d2'] })).toBe(false);
    expect(read({ level: 'users', user_ids: ['u1'] })).toBe(true);
    expect(read({ level: 'users', user_ids: ['u2'] })).toBe(false);
  });

  it('lets admins manage builtin agents and superadmins every agent', () => {
    expect(canManage({ ...actor, role: 'admin' }, agent({ builtin: true, ownerId: null }))).toBe(true);
    expect(canManage({ ...actor, role: 'admin' }, agent())).toBe(false);
    expect(canManage({ ...actor, role: 'superadmin' }, agent())).toBe(true);
  });

  it('checks that the manage scope lies inside the read scope', async () => {
    const departments = (ids: string[]) =>
      Promise.resolve(
        new Map(ids.filter((id) => id !== 'ghost').map((id) => [id, id === 'u1' ? 'd1' : 'd2'])),
      );
    const users = (...user_ids: string[]) => ({ level: 'users' as const, user_ids });
    const dept = (...department_ids: string[]) => ({ level: 'department' as const, department_ids });
    expect(await scopeWithin(null, null, departments)).toBe(true);
    expect(await scopeWithin(users('u1'), null, departments)).toBe(false);
    expect(await scopeWithin({ level: 'global' }, dept('d1'), departments)).toBe(false);
    expect(await scopeWithin(dept('d1'), { level: 'global' }, departments)).toBe(true);
    expect(await scopeWithin(users('u1'), users('u1', 'u2'), departments)).toBe(true);
    expect(await scopeWithin(users('u3'), users('u1', 'u2'), departments)).toBe(false);
    expect(await scopeWithin(dept('d1'), users('u1'), departments)).toBe(false);
    expect(await scopeWithin(dept('d1'), dept('d1', 'd2'), departments)).toBe(true);
    expect(await scopeWithin(users('u1'), dept('d1'), departments)).toBe(true);
    expect(await scopeWithin(users('u2'), dept('d1'), departments)).toBe(false);
    expect(await scopeWithin(users('ghost'), dept('d1'), departments)).toBe(false);
  });
});
