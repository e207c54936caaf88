import {
  isInternalWorkspacePath,
  parseVirtualPath,
  projectOfWorkdir,
  workdirVirtualPath,
} from '../../../src/modules/workspace/paths/virtual-paths';
import { candidateNames, sanitizeUploadFilename } from '../../../src/modules/workspace/upload-filename';

describe('virtual paths', () => {
  it('parses without touching the disk into an area and segments', () => {
    expect(parseVirtualPath('/home/gem/user-data/workdir/demo/')).toEqual({
      path: '/home/gem/user-data/workdir/demo',
      area: 'user_data',
      segments: ['workdir', 'demo'],
    });
    expect(parseVirtualPath('/home/gem/skills/pdf/SKILL.md')).toEqual({
      path: '/home/gem/skills/pdf/SKILL.md',
      area: 'shared_skills',
      segments: ['pdf', 'SKILL.md'],
    });
  });

  it.each([
    ['/home/gem/user-data/workdir/demo/large_tool_results/call_1.txt', true],
    ['/home/gem/user-data/workdir/demo/large_tool_results', true],
    ['/home/gem/user-data/workdir/demo/.summaries/thread.md', true],
    ['/home/gem/user-data/workdir/demo/outputs/../large_tool_results/x.txt', true],
    ['/home/gem/user-data/workdir/demo/outputs/report.html', false],
    ['/home/gem/user-data/workdir/demo/outputs/large_tool_results/x.txt', false],
    ['/home/gem/user-data/large_tool_results/x.txt', false],
    ['/home/gem/skills/x/large_tool_results/y', false],
    ['/etc/passwd', false],
  ])('flags %s as internal: %s', (path, internal) => {
    expect(isInternalWorkspacePath(path)).toBe(internal);
  });

  it('flags relative internal paths against the workdir', () => {
    expect(isInternalWorkspacePath('large_tool_results/a.txt', '/home/gem/user-data/workdir/demo/')).toBe(
      true,
    );
    expect(isInternalWorkspacePath('outputs/a.txt', '/home/gem/user-data/workdir/demo/')).toBe(false);
  });

  it('builds workdirs from safe project slugs only', () => {
    expect(workdirVirtualPath('demo_1')).toBe('/home/gem/user-data/workdir/demo_1/');
    for (const bad of ['', '..', '.hidden', 'a/b', 'a b', '-x', 'x'.repeat(65)]) {
      expect(() => workdirVirtualPath(bad)).toThrow(
        expect.objectContaining({ code: 'workspace.invalid_project' }),
      );
    }
  });

  it('recognises a project workdir and nothing else', () => {
    expect(projectOfWorkdir('/home/gem/user-data/workdir/demo/')).toBe('demo');
    expect(projectOfWorkdir('/home/gem/user-data/workdir/demo')).toBe('demo');
    expect(projectOfWorkdir('/home/gem/user-data/workdir/demo/outputs')).toBeUndefined();
    expect(projectOfWorkdir('/home/gem/user-data/workdir')).toBeUndefined();
    expect(projectOfWorkdir('/home/gem/skills/workdir/demo')).toBeUndefined();
    expect(projectOfWorkdir('demo')).toBeUndefined();
  });
});

describe('upload file names', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\Desktop\\数据.xlsx', '数据.xlsx'],
    ['..', 'upload'],
    ['.bashrc', 'bashrc'],
    ['  spaced   name .txt  ', 'spaced name .txt'],
    ['a\0b\nc\u007f.txt', 'abc.txt'],
    ['what?<>|*:".md', 'what.md'],
    ['x\ud800y\udc00.txt', 'xy.txt'],
    ['pair 😀.txt', 'pair 😀.txt'],
    ['', 'upload'],
    ['/', 'upload'],
  ])('sanitises %j to %j', (raw, expected) => {
    expect(sanitizeUploadFilename(raw)).toBe(expected);
  });

  it('caps a long name at 180 bytes and keeps the extension', () => {
    const name = sanitizeUploadFilename(`${'报'.repeat(100)}.docx`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(180);
    expect(name.endsWith('.docx')).toBe(true);
  });

  it('numbers the alternatives before the extension', () => {
    expect([...candidateNames('a.tar.gz', 3)]).toEqual(['a.tar.gz', 'a.tar-1.gz', 'a.tar-2.gz']);
    expect([...candidateNames('README', 2)]).toEqual(['README', 'README-1']);
  });
});
