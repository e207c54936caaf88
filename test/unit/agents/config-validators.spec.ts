import { isShareScope } from '../../../src/common/sharing/share-scope.validator';
import { isResourceSelection } from '../../../src/modules/agents/dto/config-validators';

describe('config validators', () => {
  it('accepts "all" or a list of unique non-empty strings only', () => {
    for (const ok of ['all', [], ['a', 'b']]) expect(isResourceSelection(ok)).toBe(true);
    for (const bad of [null, undefined, 'some', 'ALL', [1], ['a', 'a'], [''], {}, [null]])
      expect(isResourceSelection(bad)).toBe(false);
  });

  it('accepts the three scope shapes with unique uuids and nothing else', () => {
    const id = '6f1c2b1e-8a7d-4c3b-9e2f-0a1b2c3d4e5f';
    expect(isShareScope({ level: 'global' })).toBe(true);
    expect(isShareScope({ level: 'department', department_ids: [id] })).toBe(true);
    expect(isShareScope({ level: 'users', user_ids: [] })).toBe(true);
    for (const bad of [
      null,
      { level: 'everyone' },
      { level: 'global', user_ids: [id] },
      { level: 'users', department_ids: [id] },
      { level: 'users', user_ids: ['not-a-uuid'] },
      { level: 'users', user_ids: [id, id] },
    ])
      expect(isShareScope(bad)).toBe(false);
  });
});
