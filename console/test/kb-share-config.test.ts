import { describe, expect, it } from 'vitest';
import type { ShareConfig } from '../src/api/types';
import {
  formToShareConfig,
  kbUpdateBody,
  levelAllowed,
  sameShareConfig,
  shareConfigToForm,
  shareFormProblems,
  summarizeScope,
  type ShareForm,
} from '../src/pages/knowledge/share-config';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const D = '33333333-3333-4333-8333-333333333333';

const form = (read: Partial<ShareForm['read']>, manage: Partial<ShareForm['manage']> = {}): ShareForm => ({
  read: { level: 'none', departmentIds: [], userIds: [], ...read },
  manage: { level: 'none', departmentIds: [], userIds: [], ...manage },
});

describe('share config form ↔ API shape', () => {
  it.each<ShareConfig>([
    { version: 2, read_scope: { level: 'global' }, manage_scope: null },
    { version: 2, read_scope: null, manage_scope: null },
    {
      version: 2,
      read_scope: { level: 'department', department_ids: [D] },
      manage_scope: { level: 'users', user_ids: [A, B] },
    },
  ])('round-trips %j', (config) => {
    expect(formToShareConfig(shareConfigToForm(config))).toEqual(config);
  });

  it('sends only the ids of the chosen level, without repeats', () => {
    const edited = form({ level: 'users', userIds: [A, A, B], departmentIds: [D] }, { level: 'global' });
    expect(formToShareConfig(edited)).toEqual({
      version: 2,
      read_scope: { level: 'users', user_ids: [A, B] },
      manage_scope: { level: 'global' },
    });
  });

  it('does not share the form arrays with the config it came from', () => {
    const config: ShareConfig = {
      version: 2,
      read_scope: { level: 'users', user_ids: [A] },
      manage_scope: null,
    };
    shareConfigToForm(config).read.userIds.push(B);
    expect(config.read_scope).toEqual({ level: 'users', user_ids: [A] });
  });
});

describe('who may use which level', () => {
  it('lets a normal user name users or nobody only', () => {
    expect(['none', 'global', 'department', 'users'].filter((l) => levelAllowed('user', l as never))).toEqual(
      ['none', 'users'],
    );
    expect(levelAllowed('admin', 'department')).toBe(true);
    expect(levelAllowed('superadmin', 'global')).toBe(true);
  });
});

describe('shareFormProblems', () => {
  it('accepts a complete form', () => {
    expect(shareFormProblems(form({ level: 'global' }, { level: 'users', userIds: [A] }), 'admin')).toEqual(
      [],
    );
  });

  it('names a forbidden level and an empty choice', () => {
    expect(
      shareFormProblems(form({ level: 'department' }, { level: 'users', userIds: [A] }), 'user'),
    ).toEqual([
      { scope: 'read', kind: 'levelForbidden', level: 'department' },
      { scope: 'read', kind: 'noDepartments' },
    ]);
    expect(shareFormProblems(form({ level: 'users' }), 'admin')).toEqual([
      { scope: 'read', kind: 'noUsers' },
    ]);
  });

  it('lets a normal user leave a level they may not choose as it was saved', () => {
    const saved = form({ level: 'global' }, { level: 'users', userIds: [A] });
    expect(shareFormProblems(saved, 'user', saved)).toEqual([]);
    expect(
      shareFormProblems(form({ level: 'global' }), 'user', form({ level: 'users', userIds: [A] })),
    ).toEqual([{ scope: 'read', kind: 'levelForbidden', level: 'global' }]);
  });
});

describe('sameShareConfig', () => {
  it('ignores the order of ids but not the level or the ids', () => {
    const users = (ids: string[]): ShareConfig => ({
      version: 2,
      read_scope: { level: 'users', user_ids: ids },
      manage_scope: null,
    });
    expect(sameShareConfig(users([A, B]), users([B, A]))).toBe(true);
    expect(sameShareConfig(users([A]), users([A, B]))).toBe(false);
    expect(sameShareConfig(users([A]), { ...users([A]), manage_scope: { level: 'global' } })).toBe(false);
    expect(
      sameShareConfig(
        { version: 2, read_scope: { level: 'department', department_ids: [A] }, manage_scope: null },
        users([A]),
      ),
    ).toBe(false);
  });
});

describe('summarizeScope', () => {
  const known = { departments: new Map([[D, 'Sales']]), users: new Map([[A, 'ann']]) };

  it('names what it knows and counts the users it cannot name', () => {
    expect(summarizeScope(null, known)).toEqual({ kind: 'none' });
    expect(summarizeScope({ level: 'global' }, known)).toEqual({ kind: 'global' });
    expect(summarizeScope({ level: 'department', department_ids: [D, B] }, known)).toEqual({
      kind: 'departments',
      names: ['Sales', B],
    });
    expect(summarizeScope({ level: 'users', user_ids: [A, B] }, known)).toEqual({
      kind: 'users',
      names: ['ann'],
      others: 1,
    });
  });
});

describe('kbUpdateBody', () => {
  const current = {
    name: 'Handbook',
    description: '',
    share_config: { version: 2, read_scope: { level: 'global' }, manage_scope: null } as ShareConfig,
  };

  it('is null when nothing changed', () => {
    expect(kbUpdateBody(current, { ...current, share_config: { ...current.share_config } })).toBeNull();
  });

  it('sends only the changed fields, so a rename never resubmits the share config', () => {
    expect(kbUpdateBody(current, { ...current, name: 'Staff handbook' })).toEqual({ name: 'Staff handbook' });
    const shared: ShareConfig = { version: 2, read_scope: null, manage_scope: null };
    expect(kbUpdateBody(current, { ...current, description: 'HR', share_config: shared })).toEqual({
      description: 'HR',
      share_config: shared,
    });
  });
});
