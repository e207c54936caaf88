import { normalizeMarkdown, summarizeMarkdown } from '../../../src/modules/ocr/markdown-result';

describe('markdown result', () => {
  it('normalises line ends, trailing blanks and runs of empty lines', () => {
    expect(normalizeMarkdown('\r\n  # T  \r\n\r\n\r\n\r\nbody \t\n\n\n')).toBe('# T\n\nbody');
    expect(normalizeMarkdown(' \n\t\n')).toBe('');
  });

  it('counts code points and previews the first 1200 of them', () => {
    const text = '文'.repeat(1500);
    const summary = summarizeMarkdown(text);
    expect(summary).toEqual({ charCount: 1500, preview: '文'.repeat(1200), truncated: true });
  });

  it('never cuts a surrogate pair and reports an exact fit as not truncated', () => {
    const text = '😀'.repeat(5);
    expect(summarizeMarkdown(text, 3)).toEqual({ charCount: 5, preview: '😀😀😀', truncated: true });
    expect(summarizeMarkdown(text, 5)).toEqual({ charCount: 5, preview: text, truncated: false });
  });
});
