import { redactSecret } from '../../../src/common/crypto/redact-secret';

describe('redactSecret', () => {
  it.each([
    ['tvly-1234567890abcdef', 'tvly…cdef'],
    ['sk-abcdefghijklmnopqrstuvwxyz', 'sk-a…wxyz'],
    ['abcdefgh', 'ab…gh'],
    ['abcd', 'a…d'],
    ['abc', '…'],
    ['', '…'],
  ])('shows %s as %s', (secret, shown) => {
    expect(redactSecret(secret)).toBe(shown);
  });

  it('never shows more than 4 characters from each end', () => {
    const secret = 'x'.repeat(10) + 'SECRETMIDDLE' + 'y'.repeat(10);
    const shown = redactSecret(secret);
    expect(shown).toBe('xxxx…yyyy');
    expect(shown.replace('…', '').length).toBeLessThanOrEqual(8);
  });
});
