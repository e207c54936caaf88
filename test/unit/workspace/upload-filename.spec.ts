import { sanitizeUploadFilename } from '../../../src/modules/workspace/upload-filename';

describe('sanitizeUploadFilename on adversarial names', () => {
  it('handles a name with 80k dots between two letters (the trailing trim was quadratic)', () => {
    const name = sanitizeUploadFilename(`a${'.'.repeat(80_000)}b`);
    expect(name.startsWith('a...')).toBe(true);
    expect(name.endsWith('.b')).toBe(true);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(180);
  });

  it('still drops trailing dots and blanks', () => {
    expect(sanitizeUploadFilename('report. . .')).toBe('report');
    expect(sanitizeUploadFilename(' .. notes.txt . ')).toBe('notes.txt');
    expect(sanitizeUploadFilename(`x${' .'.repeat(40_000)}`)).toBe('x');
  });
});
