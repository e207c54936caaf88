import { ToolGlob } from '../../../src/modules/tools/approval/tool-glob';
import { referenceGlobMatch } from '../../support/approval/reference-glob';
import { seededRandom } from '../../support/approval/seeded-random';

const matches = (pattern: string, name: string) => new ToolGlob(pattern).matches(name);

/** Names each `*` of `pattern` could stand for, filled with random text: names that should match. */
function instanceOf(pattern: string, fill: () => string): string {
  return pattern
    .split('*')
    .map((piece, index) => (index === 0 ? piece : fill() + piece))
    .join('');
}

describe('ToolGlob', () => {
  it('matches a name without stars exactly: no prefix, suffix, case folding or trimming', () => {
    expect(matches('write_file', 'write_file')).toBe(true);
    expect(matches('write_file', 'write_file2')).toBe(false);
    expect(matches('write_file', 'my_write_file')).toBe(false);
    expect(matches('write_file', 'Write_File')).toBe(false);
    expect(matches('write_file', ' write_file')).toBe(false);
    expect(matches('write_file', '')).toBe(false);
  });

  it('matches every name, the empty one included, with a star alone or stars only', () => {
    for (const pattern of ['*', '**', '***'])
      for (const name of ['', 'a', 'write_file', 'mcp:github:create_issue', '*'])
        expect(matches(pattern, name)).toBe(true);
  });

  it('anchors a leading star at the end and a trailing star at the start', () => {
    expect(matches('*_file', 'write_file')).toBe(true);
    expect(matches('*_file', '_file')).toBe(true);
    expect(matches('*_file', 'write_file_')).toBe(false);
    expect(matches('write_*', 'write_file')).toBe(true);
    expect(matches('write_*', 'write_')).toBe(true);
    expect(matches('write_*', 'rewrite_file')).toBe(false);
    expect(matches('write_*', 'write')).toBe(false);
  });

  it('needs room for both ends of a middle star: they may not overlap', () => {
    expect(matches('read*file', 'read_file')).toBe(true);
    expect(matches('read*file', 'readfile')).toBe(true);
    expect(matches('read*file', 'read_a_file')).toBe(true);
    expect(matches('read*file', 'read_files')).toBe(false);
    expect(matches('ab*ba', 'aba')).toBe(false);
    expect(matches('ab*ba', 'abba')).toBe(true);
    expect(matches('a*a', 'a')).toBe(false);
    expect(matches('a*a', 'aa')).toBe(true);
  });

  it('matches middle pieces in order, each where it leaves room for the rest', () => {
    expect(matches('*a*b*', 'xaxbx')).toBe(true);
    expect(matches('*a*b*', 'xbxax')).toBe(false);
    expect(matches('*ab*ab*', 'abab')).toBe(true);
    expect(matches('*ab*ab*', 'aba')).toBe(false);
    expect(matches('x*ab*y', 'xababy')).toBe(true);
    // The middle piece's only occurrence overlaps the suffix: no match.
    expect(matches('*aa*a', 'aa')).toBe(false);
    expect(matches('*aa*a', 'aaa')).toBe(true);
  });

  it('treats consecutive stars as one star', () => {
    for (const name of ['ab', 'axb', 'axxb', 'a', 'b', 'ba', ''])
      expect(matches('a**b', name)).toBe(matches('a*b', name));
    expect(matches('a***b', 'ab')).toBe(true);
    expect(matches('**a**', 'xax')).toBe(true);
    expect(matches('**a**', 'xx')).toBe(false);
  });

  it('matches MCP approval names by server and by tool', () => {
    expect(matches('mcp:github:*', 'mcp:github:create_issue')).toBe(true);
    expect(matches('mcp:github:*', 'mcp:github:')).toBe(true);
    expect(matches('mcp:github:*', 'mcp:github-enterprise:create_issue')).toBe(false);
    expect(matches('mcp:github:*', 'create_issue')).toBe(false);
    expect(matches('*:delete_*', 'mcp:github:delete_repo')).toBe(true);
    expect(matches('*:delete_*', 'mcp:fs:delete_file')).toBe(true);
    expect(matches('*:delete_*', 'delete_file')).toBe(false);
    expect(matches('*:delete_*', 'mcp:fs:undelete_file')).toBe(false);
    expect(matches('mcp:*:read_*', 'mcp:fs:read_file')).toBe(true);
    expect(matches('mcp:*:read_*', 'mcp:fs:write_file')).toBe(false);
  });

  it.each(['.', '+', '(', ')', '[', ']', '{', '}', '\\', '?', '^', '$', '|'])(
    'matches the regex character %s literally',
    (char) => {
      expect(matches(`a${char}b`, `a${char}b`)).toBe(true);
      expect(matches(`a${char}b`, 'axb')).toBe(false);
      expect(matches(`a${char}b`, 'ab')).toBe(false);
      expect(matches(`*${char}`, `tool${char}`)).toBe(true);
      expect(matches(`*${char}`, 'tool')).toBe(false);
      expect(matches(`${char}*`, `${char}tool`)).toBe(true);
      expect(matches(`${char}*`, 'tool')).toBe(false);
    },
  );

  it('does not give regex meaning to any character sequence', () => {
    expect(matches('a.*', 'abc')).toBe(false);
    expect(matches('a.*', 'a.bc')).toBe(true);
    expect(matches('[ab]', 'a')).toBe(false);
    expect(matches('[ab]', '[ab]')).toBe(true);
    expect(matches('a+', 'aa')).toBe(false);
    expect(matches('(a|b)', 'a')).toBe(false);
    expect(matches('\\d', '1')).toBe(false);
    expect(matches('\\d', '\\d')).toBe(true);
    expect(matches('a?', 'a')).toBe(false);
    expect(matches('a?', 'a?')).toBe(true);
    expect(matches('$&', '$&')).toBe(true);
  });

  it('handles the empty pattern and empty pieces around the stars', () => {
    expect(matches('', '')).toBe(true);
    expect(matches('', 'a')).toBe(false);
    expect(matches('*a', 'a')).toBe(true);
    expect(matches('a*', 'a')).toBe(true);
    expect(matches('*a*', 'a')).toBe(true);
    expect(matches('*a*', '')).toBe(false);
  });

  it('compares UTF-16 code units: no normalization, CJK and astral characters as written', () => {
    expect(matches('工具_*', '工具_读取')).toBe(true);
    expect(matches('工具_*', '工具读取')).toBe(false);
    expect(matches('*_读取', '工具_读取')).toBe(true);
    expect(matches('🔧*🔨', '🔧 tools 🔨')).toBe(true);
    expect(matches('🔧*🔨', '🔨 tools 🔧')).toBe(false);
    expect(matches('mcp:*:😀', 'mcp:emoji:😀')).toBe(true);
    // "é" precomposed versus "e" + combining acute accent: different names.
    expect(matches('caf\u00e9', 'cafe\u0301')).toBe(false);
    expect(matches('caf*', 'cafe\u0301')).toBe(true);
  });

  it('keeps the pattern it was built from', () => {
    expect(new ToolGlob('mcp:github:*').pattern).toBe('mcp:github:*');
  });

  it('agrees with the reference matcher on 5,000 seeded-random patterns and names', () => {
    const random = seededRandom(0x5eed_7001);
    let matched = 0;
    let comparisons = 0;
    for (let p = 0; p < 5000; p++) {
      const pattern = random.string('ab*:.', random.int(0, 8));
      const glob = new ToolGlob(pattern);
      const names = [
        ...Array.from({ length: 12 }, () => random.string('ab*:.', random.int(0, 10))),
        ...Array.from({ length: 4 }, () =>
          instanceOf(pattern, () => random.string('ab:.', random.int(0, 3))),
        ),
      ];
      for (const name of names) {
        const expected = referenceGlobMatch(pattern, name);
        if (glob.matches(name) !== expected)
          throw new Error(
            `ToolGlob(${JSON.stringify(pattern)}) on ${JSON.stringify(name)}: want ${expected}`,
          );
        if (expected) matched++;
        comparisons++;
      }
    }
    expect(comparisons).toBe(5000 * 16);
    // Both answers are well represented, so the comparison says something about each.
    expect(matched).toBeGreaterThan(comparisons / 5);
    expect(matched).toBeLessThan((comparisons * 4) / 5);
  });
});
