import { jsonNestsDeeperThan } from '../../../src/common/http/json-depth';

const deeper = (text: string, max: number) => jsonNestsDeeperThan(Buffer.from(text, 'utf8'), max);

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects alike', () => {
    expect(deeper('[[{"a":[1]}]]', 4)).toBe(false);
    expect(deeper('[[{"a":[1]}]]', 3)).toBe(true);
    expect(deeper('{"a":{"b":{}}, "c":{"d":{}}}', 3)).toBe(false);
  });

  it('measures the deepest point, not the number of containers', () => {
    expect(deeper(`[${'[],'.repeat(10_000)}[]]`, 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(deeper('["[[[[", "\\"[[[[", "\\\\", "]]"]', 1)).toBe(false);
    expect(deeper('["\\\\", [[]]]', 2)).toBe(true);
  });

  it('reads multibyte UTF-8 text without miscounting', () => {
    expect(deeper('{"名前":"[文件]","emoji":"😀{"}', 1)).toBe(false);
  });
});
