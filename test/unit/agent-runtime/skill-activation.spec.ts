import type { RunConfigSnapshot } from '../../../src/modules/agent-runtime/assembly/run-config-snapshot';
import {
  isErrorContent,
  skillActivatedBy,
} from '../../../src/modules/agent-runtime/worker/session/skill-activation';

const skill = (slug: string, path: string) => ({
  slug,
  name: slug,
  description: '',
  path,
  source: 'shared' as const,
  revision: '1',
  tool_dependencies: [],
  mcp_dependencies: [],
});

const snapshot = {
  effective_skills: [
    skill('alpha', '/home/gem/skills/alpha/SKILL.md'),
    skill('mine', '/home/gem/user-data/agents/skills/mine/SKILL.md'),
  ],
} as unknown as RunConfigSnapshot;

const read = (file_path: string, name = 'read_file') => ({ id: 'c1', name, args: { file_path } });

describe('skillActivatedBy', () => {
  it('activates the effective skill whose SKILL.md path was read successfully', () => {
    expect(skillActivatedBy(snapshot, read('/home/gem/skills/alpha/SKILL.md'), false)).toBe('alpha');
    expect(skillActivatedBy(snapshot, read('/home/gem/user-data/agents/skills/mine/SKILL.md'), false)).toBe(
      'mine',
    );
  });

  it('activates nothing for a failed read, another file, another tool or a skill outside the run', () => {
    expect(skillActivatedBy(snapshot, read('/home/gem/skills/alpha/SKILL.md'), true)).toBeNull();
    expect(skillActivatedBy(snapshot, read('/home/gem/skills/alpha/notes.md'), false)).toBeNull();
    expect(skillActivatedBy(snapshot, read('/home/gem/skills/alpha/SKILL.md', 'grep'), false)).toBeNull();
    expect(skillActivatedBy(snapshot, read('/home/gem/skills/beta/SKILL.md'), false)).toBeNull();
    const old = {} as RunConfigSnapshot;
    expect(skillActivatedBy(old, read('/home/gem/skills/alpha/SKILL.md'), false)).toBeNull();
  });

  it('tells a stored failed result from a successful one', () => {
    expect(isErrorContent('{"error":{"code":"workspace.file_not_found","message":"x"}}')).toBe(true);
    expect(isErrorContent('---\nname: alpha\n---\n')).toBe(false);
  });
});
