import { deflateSync } from 'node:zlib';
import { assertFileSize, assertImagePixels } from '../../../src/modules/ocr/input-caps';
import { renderTextImage } from '../../support/fixtures/make-text-image';

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

/** A PNG signature and header chunk declaring `width`×`height`, with one tiny data chunk. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(16))),
  ]);
}

describe('input caps', () => {
  it('refuses a file over the byte limit and accepts one at it', () => {
    expect(codeOf(() => assertFileSize('/home/gem/user-data/a.pdf', 101, 100))).toBe('ocr.file_too_large');
    expect(codeOf(() => assertFileSize('/home/gem/user-data/a.pdf', 100, 100))).toBeUndefined();
  });

  it('reads the dimensions of a real image from its header', () => {
    const png = renderTextImage(['hello']);
    expect(assertImagePixels(png, 40_000_000)).toEqual({ width: 1400, height: expect.any(Number) });
  });

  it('refuses an image whose header declares more pixels than allowed, without decoding it', () => {
    // 100 000 × 100 000 would be 40 GB decoded; the file is under 100 bytes.
    const huge = pngHeader(100_000, 100_000);
    expect(huge.length).toBeLessThan(100);
    expect(codeOf(() => assertImagePixels(huge, 40_000_000))).toBe('ocr.image_too_large');
    expect(codeOf(() => assertImagePixels(pngHeader(4000, 10_000), 40_000_000))).toBeUndefined();
  });

  it('refuses an image whose header cannot be read', () => {
    expect(codeOf(() => assertImagePixels(Buffer.from([0xff, 0xd8, 0xff, 0x00]), 40_000_000))).toBe(
      'ocr.unreadable',
    );
  });
});
