import { SHOWN_CHARS, truncate } from '../../../src/common/text/truncate';

describe('truncate', () => {
  it('keeps text up to the limit and cuts longer text to the limit plus an ellipsis', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcd', 3)).toBe('abc…');
    expect(truncate('', 0)).toBe('');
    expect(truncate('x'.repeat(SHOWN_CHARS))).toBe('x'.repeat(SHOWN_CHARS));
    expect(truncate('x'.repeat(SHOWN_CHARS + 1))).toBe(`${'x'.repeat(SHOWN_CHARS)}…`);
  });
});
