import { createHash } from 'node:crypto';
import { largeResultPreview } from '../../../src/modules/workspace/large-result-preview';
import { fileSafeToolName, largeResultFileName } from '../../../src/modules/workspace/large-tool-results';

const sha16 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

describe('large tool result file names', () => {
  it.each([
    ['read_file', 'read_file'],
    ['mcp-tool_2', 'mcp-tool_2'],
    ['../../etc/passwd', 'etc_passwd'],
    ['a/b\\c', 'a_b_c'],
    ['name with spaces:and.dots', 'name_with_spaces_and_dots'],
    ['-rf', 'rf'],
    ['__init__', 'init'],
    ['搜索', 'tool'],
    ['', 'tool'],
    ['.', 'tool'],
    ['x\u0000y\nz', 'x_y_z'],
    ['a'.repeat(300), 'a'.repeat(64)],
  ])('makes %j a safe file name part: %j', (name, safe) => {
    expect(fileSafeToolName(name)).toBe(safe);
  });

  it('names a result by its tool and the first 16 hex characters of its sha256', () => {
    const text = 'some long output';
    expect(largeResultFileName('web_fetch', Buffer.from(text))).toBe(`web_fetch-${sha16(text)}.txt`);
    expect(largeResultFileName('../x', Buffer.from(text))).toBe(`x-${sha16(text)}.txt`);
    // Same text, same name; other text, other name.
    expect(largeResultFileName('t', Buffer.from(text))).toBe(largeResultFileName('t', Buffer.from(text)));
    expect(largeResultFileName('t', Buffer.from(`${text}!`))).not.toBe(
      largeResultFileName('t', Buffer.from(text)),
    );
  });
});

describe('large tool result preview', () => {
  const saved = {
    path: '/home/gem/user-data/workdir/p/large_tool_results/t-0.txt',
    bytes: 0,
    inlineChars: 20_000,
  };

  it('gives the sizes, the path, how to read on, then the head and the tail', () => {
    const text = `${'é'.repeat(30_000)}\n${'b'.repeat(30_000)}\n`;
    const preview = largeResultPreview(text, { ...saved, bytes: Buffer.byteLength(text) });
    expect(preview).toBe(
      '[This result is too large to show in full: 60002 characters (90002 bytes, 2 lines). The full text ' +
        `was saved to ${saved.path}. Read the rest with read_file (offset and limit count lines) or search ` +
        'it with grep. Its beginning and its end follow.]\n\n' +
        `${'é'.repeat(2000)}\n\n[… 57002 characters not shown …]\n\n${'b'.repeat(999)}\n`,
    );
  });

  it('keeps head and tail below a small inline limit and never splits a surrogate pair', () => {
    const text = '😀'.repeat(100);
    const preview = largeResultPreview(text, { ...saved, inlineChars: 41 });
    const shown = preview.slice(preview.indexOf(']\n\n') + 3);
    // 20 and 10 characters asked for: 10 emoji at the head, 5 at the tail.
    expect(shown).toBe(`${'😀'.repeat(10)}\n\n[… 170 characters not shown …]\n\n${'😀'.repeat(5)}`);
    // 21 characters of head asked for: the 11th emoji would be cut, so 10 are shown.
    const oddHead = largeResultPreview(text, { ...saved, inlineChars: 43 });
    expect(oddHead).toContain(`]\n\n${'😀'.repeat(10)}\n\n[… 170 characters`);
    // 11 characters of tail asked for: 5 emoji.
    const oddTail = largeResultPreview(text, { ...saved, inlineChars: 44 });
    expect(oddTail.endsWith(`characters not shown …]\n\n${'😀'.repeat(5)}`)).toBe(true);
    for (const preview of [oddHead, oddTail]) expect(preview).not.toMatch(/[\ud800-\udfff]/u);
  });
});
