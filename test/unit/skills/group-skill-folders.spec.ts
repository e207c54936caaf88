import { groupSkillFolders } from '../../../src/modules/skills/archive/group-skill-folders';
import { type ArchiveFile } from '../../../src/common/archive/index';

const file = (path: string, text = path): ArchiveFile => ({ path, bytes: Buffer.from(text) });
const shape = (result: ReturnType<typeof groupSkillFolders>) => ({
  items: result.items.map((item) => ({
    folder: item.folder,
    files: item.files.map((f) => `${f.path}=${Buffer.from(f.bytes).toString()}`),
  })),
  failures: result.failures,
  nestedSkillMd: result.nestedSkillMd,
});

describe('groupSkillFolders: every folder holding a SKILL.md is one item', () => {
  it('reads a GitHub-style archive (one wrapping top folder) with skills/a and skills/b, ignoring the rest', () => {
    const result = groupSkillFolders([
      file('repo-HEAD/README.md'),
      file('repo-HEAD/skills/a/SKILL.md'),
      file('repo-HEAD/skills/a/scripts/run.py'),
      file('repo-HEAD/skills/a/references/deep/notes.md'),
      file('repo-HEAD/skills/b/SKILL.md'),
      file('repo-HEAD/skills/b/assets/logo.svg'),
      file('repo-HEAD/skills/LICENSE'),
      file('repo-HEAD/docs/guide.md'),
    ]);
    expect(shape(result)).toEqual({
      items: [
        {
          folder: 'repo-HEAD/skills/a',
          files: [
            'SKILL.md=repo-HEAD/skills/a/SKILL.md',
            'scripts/run.py=repo-HEAD/skills/a/scripts/run.py',
            'references/deep/notes.md=repo-HEAD/skills/a/references/deep/notes.md',
          ],
        },
        {
          folder: 'repo-HEAD/skills/b',
          files: [
            'SKILL.md=repo-HEAD/skills/b/SKILL.md',
            'assets/logo.svg=repo-HEAD/skills/b/assets/logo.svg',
          ],
        },
      ],
      failures: [],
      nestedSkillMd: [],
    });
  });

  it('takes a SKILL.md at the root as one item whose folder is ""', () => {
    expect(shape(groupSkillFolders([file('SKILL.md'), file('ref/a.md')])).items).toEqual([
      { folder: '', files: ['SKILL.md=SKILL.md', 'ref/a.md=ref/a.md'] },
    ]);
  });

  it('flags a SKILL.md nested inside another skill folder, naming both, and keeps it out of the items', () => {
    const result = groupSkillFolders([
      file('pack/outer/SKILL.md'),
      file('pack/outer/inner/SKILL.md'),
      file('pack/outer/inner/deeper/SKILL.md'),
      file('pack/other/SKILL.md'),
    ]);
    expect(result.nestedSkillMd).toEqual([
      { path: 'pack/outer/inner/SKILL.md', insideFolder: 'pack/outer' },
      { path: 'pack/outer/inner/deeper/SKILL.md', insideFolder: 'pack/outer' },
    ]);
    expect(result.items.map((item) => item.folder)).toEqual(['pack/other', 'pack/outer']);
  });

  it('lists a folder whose only skill file is misspelled (skill.md) as a failure, and no item', () => {
    const result = groupSkillFolders([file('x/skill.md'), file('y/SKILL.md'), file('y/Skill.MD')]);
    expect(result.failures).toEqual([{ folder: 'x', path: 'x/skill.md', reason: 'skill_md_misnamed' }]);
    expect(shape(result).items).toEqual([
      { folder: 'y', files: ['SKILL.md=y/SKILL.md', 'Skill.MD=y/Skill.MD'] },
    ]);
  });

  it('returns nothing for an archive without any SKILL.md', () => {
    expect(groupSkillFolders([file('README.md'), file('src/index.ts')])).toEqual({
      items: [],
      failures: [],
      nestedSkillMd: [],
    });
  });
});
