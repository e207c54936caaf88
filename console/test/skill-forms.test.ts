import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/api-error';
import type { SkillDraft, SkillSummary } from '../src/api/types';
import {
  dependenciesOf,
  dependencyTexts,
  names,
  sameDependencies,
} from '../src/pages/skills/dependency-lists';
import { confirmBody, installTargets, refusedFolders } from '../src/pages/skills/draft-review';
import { levelsFor, scopeForm, scopeOf, shareConfigOf } from '../src/components/sharing/share-config';
import { canEdit, canToggle, deleteRoute, filterSkills } from '../src/pages/skills/skill-list';

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';

describe('share config forms', () => {
  it('offers a normal user only "nobody else" and named users; an admin every level', () => {
    expect(levelsFor('user')).toEqual(['none', 'users']);
    expect(levelsFor('admin')).toEqual(['none', 'users', 'department', 'global']);
    expect(levelsFor('superadmin')).toEqual(levelsFor('admin'));
    expect(levelsFor(undefined)).toEqual(['none', 'users']);
  });

  it('turns scopes into forms and back', () => {
    for (const scope of [
      null,
      { level: 'global' as const },
      { level: 'department' as const, department_ids: [U1] },
      { level: 'users' as const, user_ids: [U1, U2] },
    ]) {
      expect(scopeOf(scopeForm(scope))).toEqual(scope);
    }
  });

  it('sends only what the level needs, each id once', () => {
    expect(scopeOf({ level: 'users', userIds: [U1, U1, U2], departmentIds: [U2] })).toEqual({
      level: 'users',
      user_ids: [U1, U2],
    });
    expect(scopeOf({ level: 'global', userIds: [U1], departmentIds: [U2] })).toEqual({ level: 'global' });
    expect(
      shareConfigOf(
        { level: 'global', userIds: [], departmentIds: [] },
        { level: 'none', userIds: [], departmentIds: [] },
      ),
    ).toEqual({ version: 2, read_scope: { level: 'global' }, manage_scope: null });
  });
});

describe('dependency lists', () => {
  const deps = { tool_dependencies: ['read_file', 'grep'], mcp_dependencies: [], skill_dependencies: ['x'] };

  it('shows one name a line and reads them back, all three lists always', () => {
    const texts = dependencyTexts(deps);
    expect(texts.tool_dependencies).toBe('read_file\ngrep');
    expect(dependenciesOf(texts)).toEqual(deps);
    expect(dependenciesOf({ tool_dependencies: '', mcp_dependencies: '', skill_dependencies: '' })).toEqual({
      tool_dependencies: [],
      mcp_dependencies: [],
      skill_dependencies: [],
    });
  });

  it('takes commas or lines, drops blanks and repeats', () => {
    expect(names(' a, b\n\n a \nc ')).toEqual(['a', 'b', 'c']);
  });

  it('tells whether anything changed, order included', () => {
    expect(sameDependencies(deps, { ...deps })).toBe(true);
    expect(sameDependencies(deps, { ...deps, tool_dependencies: ['grep', 'read_file'] })).toBe(false);
  });
});

describe('draft review', () => {
  const draft: SkillDraft = {
    id: 'd1',
    expires_at: '2030-01-01T00:00:00.000Z',
    items: ['a', 'b'].map((slug) => ({
      slug,
      name: slug,
      description: '',
      version: '1.0.0',
      tool_dependencies: [],
      mcp_dependencies: [],
      skill_dependencies: [],
      warnings: [],
    })),
    failures: [],
  };
  const config = { version: 2 as const, read_scope: { level: 'global' as const }, manage_scope: null };

  it('offers the shared target to admins only', () => {
    expect(installTargets('user')).toEqual(['personal']);
    expect(installTargets('admin')).toEqual(['personal', 'shared']);
    expect(installTargets('superadmin')).toEqual(['personal', 'shared']);
  });

  it('names the slugs only when some are left out, and the share config only for a shared install', () => {
    expect(confirmBody(draft, 'personal', ['b', 'a'], config)).toEqual({ target: 'personal' });
    expect(confirmBody(draft, 'personal', ['b'], config)).toEqual({ target: 'personal', slugs: ['b'] });
    expect(confirmBody(draft, 'shared', ['a', 'b'], config)).toEqual({
      target: 'shared',
      share_config: config,
    });
  });

  it("reads the folders a refused upload names from the service's details", () => {
    const refused = new ApiError(422, 'skills.no_skill_found', 'No skill in the upload could be parsed.', {
      failures: [{ path: 'bad/SKILL.md', error: 'Invalid SKILL.md: no frontmatter' }, { path: 3 }],
    });
    expect(refusedFolders(refused)).toEqual([
      { path: 'bad/SKILL.md', error: 'Invalid SKILL.md: no frontmatter' },
    ]);
    expect(refusedFolders(new ApiError(422, 'skills.invalid_archive', 'Not a readable zip'))).toEqual([]);
    expect(refusedFolders(new Error('x'))).toEqual([]);
  });
});

describe('the skill list', () => {
  const skill = (slug: string, source: SkillSummary['source'], permission: SkillSummary['permission']) =>
    ({
      slug,
      name: slug.toUpperCase(),
      description: `About ${slug}`,
      version: '1',
      source,
      enabled: true,
      permission,
      shadowed_by_personal: false,
    }) as SkillSummary;
  const items = [
    skill('alpha', 'builtin', 'read'),
    skill('beta', 'shared', 'manage'),
    skill('gamma', 'personal', 'manage'),
  ];

  it('filters by source and by words of the slug, name or description', () => {
    expect(filterSkills(items, 'shared', '').map((s) => s.slug)).toEqual(['beta']);
    expect(filterSkills(items, '', 'about GAM').map((s) => s.slug)).toEqual(['gamma']);
    expect(filterSkills(items, '', '  ').length).toBe(3);
  });

  it('lets a manager edit and delete, never a builtin, and toggles only shared and builtin skills', () => {
    expect(items.map(canEdit)).toEqual([false, true, true]);
    expect(items.map(deleteRoute)).toEqual([null, 'shared', 'personal']);
    expect(deleteRoute(skill('beta', 'shared', 'read'))).toBeNull();
    expect(canToggle(skill('alpha', 'builtin', 'manage'))).toBe(true);
    expect(items.map(canToggle)).toEqual([false, true, false]);
  });
});
