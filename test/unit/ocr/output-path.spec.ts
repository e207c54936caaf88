import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputNames, outputStem, writeNewMarkdown } from '../../../src/modules/ocr/output-path';

describe('outputStem', () => {
  it.each([
    ['report.pdf', 'report'],
    ['Q3 report (final).docx', 'Q3_report_final'],
    ['年度 报告（终稿）.pptx', '年度_报告_终稿'],
    ['../../etc/passwd', 'passwd'],
    ['a\\b\\c.xlsx', 'c'],
    ['.hidden.png', 'hidden'],
    ['my.report.v2.pdf', 'my_report_v2'],
    ['--draft__.pdf', 'draft'],
    ['???.pdf', 'document'],
    ['', 'document'],
  ])('%j becomes %j', (name, stem) => {
    expect(outputStem(name)).toBe(stem);
  });

  it('keeps at most 80 characters, cutting between characters', () => {
    expect([...outputStem(`${'文'.repeat(100)}.pdf`)]).toHaveLength(80);
  });
});

describe('writeNewMarkdown', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ocr-output-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const target = () => ({ realPath: join(dir, 'outputs', 'ocr'), virtualPath: '/v/outputs/ocr' });

  it('names results x.md, x-1.md, x-2.md and never overwrites one', async () => {
    expect([...outputNames('x', 4)]).toEqual(['x.md', 'x-1.md', 'x-2.md', 'x-3.md']);
    expect(await writeNewMarkdown(target(), 'x', 'first')).toBe('/v/outputs/ocr/x.md');
    expect(await writeNewMarkdown(target(), 'x', 'second')).toBe('/v/outputs/ocr/x-1.md');
    expect(await writeNewMarkdown(target(), 'x', 'third')).toBe('/v/outputs/ocr/x-2.md');
    expect(await readFile(join(target().realPath, 'x.md'), 'utf8')).toBe('first');
    expect(await readFile(join(target().realPath, 'x-2.md'), 'utf8')).toBe('third');
  });

  it('gives concurrent writers distinct names', async () => {
    const paths = await Promise.all(
      Array.from({ length: 8 }, (_, i) => writeNewMarkdown(target(), 'y', `${i}`)),
    );
    expect(new Set(paths).size).toBe(8);
    expect((await readdir(target().realPath)).sort()).toHaveLength(8);
  });

  it('skips a name taken by a dangling symlink instead of writing through it', async () => {
    await writeNewMarkdown(target(), 'seed', 'x');
    const outside = join(dir, 'outside.md');
    await symlink(outside, join(target().realPath, 'z.md'));
    expect(await writeNewMarkdown(target(), 'z', 'content')).toBe('/v/outputs/ocr/z-1.md');
    await expect(readFile(outside)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a file standing where the output folder should be', async () => {
    await writeFile(join(dir, 'outputs'), 'not a folder');
    await expect(writeNewMarkdown(target(), 'x', 'c')).rejects.toMatchObject({
      code: 'workspace.not_a_directory',
    });
  });
});
