import { describe, expect, it } from 'vitest';
import { buildFileTree, formatSize, normalizeNewPath, treeRows } from '../src/pages/skills/file-tree';

describe('buildFileTree', () => {
  it('nests files under their folders, the root SKILL.md first, folders before files', () => {
    const tree = buildFileTree([
      { path: 'scripts/run.py', size: 10 },
      { path: 'README.md', size: 3 },
      { path: 'references/b.md', size: 2 },
      { path: 'SKILL.md', size: 40 },
      { path: 'references/deep/a.md', size: 1 },
      { path: 'references/a.md', size: 5 },
    ]);
    expect(treeRows(tree).map(({ node, depth }) => `${depth}:${node.kind}:${node.path}`)).toEqual([
      '0:file:SKILL.md',
      '0:folder:references',
      '1:folder:references/deep',
      '2:file:references/deep/a.md',
      '1:file:references/a.md',
      '1:file:references/b.md',
      '0:folder:scripts',
      '1:file:scripts/run.py',
      '0:file:README.md',
    ]);
  });

  it('keeps sizes and names, and a SKILL.md inside a folder is an ordinary file', () => {
    const [docs] = buildFileTree([
      { path: 'docs/SKILL.md', size: 7 },
      { path: 'docs/a.md', size: 1 },
    ]);
    expect(docs).toMatchObject({ kind: 'folder', name: 'docs' });
    expect(docs.kind === 'folder' && docs.children.map((c) => c.name)).toEqual(['a.md', 'SKILL.md']);
    expect(docs.kind === 'folder' && docs.children[1]).toEqual({
      kind: 'file',
      name: 'SKILL.md',
      path: 'docs/SKILL.md',
      size: 7,
    });
  });

  it('gives an empty list for no files', () => {
    expect(buildFileTree([])).toEqual([]);
  });
});

describe('normalizeNewPath', () => {
  it('drops blank ends and leading ./ or /, and turns backslashes into slashes', () => {
    expect(normalizeNewPath('  ./references\\notes.md ')).toBe('references/notes.md');
    expect(normalizeNewPath('/a.md')).toBe('a.md');
    expect(normalizeNewPath('   ')).toBe('');
  });

  it('leaves ".." for the service to refuse', () => {
    expect(normalizeNewPath('../x.md')).toBe('../x.md');
  });
});

describe('formatSize', () => {
  it('says bytes, kilobytes or megabytes', () => {
    expect([formatSize(0), formatSize(999), formatSize(1500), formatSize(2_500_000)]).toEqual([
      '0 B',
      '999 B',
      '1.5 kB',
      '2.5 MB',
    ]);
  });
});
