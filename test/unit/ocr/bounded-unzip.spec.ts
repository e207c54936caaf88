import { strToU8, zipSync } from 'fflate';
import { unzipBounded } from '../../../src/modules/ocr/archive/bounded-unzip';
import { ZipFormatError } from '../../../src/common/archive';
import { looseWhitespace, makeLyingZip } from '../../support/fixtures/make-lying-zip';

const KB = 1024;
const all = () => true;
const errorOf = (run: () => unknown): { code?: string; details?: unknown } | Error | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error as Error;
  }
};

describe('unzipBounded: inflation counted on the bytes it produces', () => {
  it('returns the wanted entries, stored or deflated, and skips directories and the rest', () => {
    const zip = zipSync({
      'a.xml': [strToU8('<a/>'), { level: 0 }],
      'b/c.rels': [strToU8('<r/>'), { level: 9 }],
      'b/': new Uint8Array(0),
      'media/p.png': new Uint8Array(10),
    });
    const files = unzipBounded(zip, { maxUnzippedBytes: KB, maxEntries: 10 }, (n) => /\.(xml|rels)$/.test(n));
    expect(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString()]))).toEqual(
      {
        'a.xml': '<a/>',
        'b/c.rels': '<r/>',
      },
    );
  });

  it('adds up every entry against the cap, stored ones included, whatever sizes they declare', () => {
    const part = looseWhitespace(300 * KB);
    const lying = makeLyingZip([1, 2, 3].map((i) => ({ name: `p${i}.xml`, data: part, declaredSize: 10 })));
    expect(
      errorOf(() => unzipBounded(lying, { maxUnzippedBytes: 800 * KB, maxEntries: 10 }, all)),
    ).toMatchObject({
      code: 'ocr.archive_too_large',
      details: { limit: `${800 * KB} bytes` },
    });
    expect(
      Object.keys(unzipBounded(lying, { maxUnzippedBytes: 900 * KB, maxEntries: 10 }, all)),
    ).toHaveLength(3);
    const stored = zipSync({ 'a.xml': [part, { level: 0 }], 'b.xml': [part, { level: 0 }] });
    expect(
      errorOf(() => unzipBounded(stored, { maxUnzippedBytes: 500 * KB, maxEntries: 10 }, all)),
    ).toMatchObject({
      code: 'ocr.archive_too_large',
    });
  });

  it('refuses more entries than the limit before inflating any', () => {
    const files = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.xml`, strToU8('x')]));
    expect(
      errorOf(() => unzipBounded(zipSync(files), { maxUnzippedBytes: KB, maxEntries: 10 }, all)),
    ).toMatchObject({
      code: 'ocr.archive_too_large',
      details: { limit: '10 entries' },
    });
  });

  it('reports a damaged archive as a format error', () => {
    const zip = Buffer.from(zipSync({ 'a.xml': strToU8('<a>'.repeat(100)) }));
    expect(
      errorOf(() => unzipBounded(zip.subarray(0, 30), { maxUnzippedBytes: KB, maxEntries: 10 }, all)),
    ).toBeInstanceOf(ZipFormatError);
    zip.fill(0xff, 40, 60); // inside the deflate stream
    expect(errorOf(() => unzipBounded(zip, { maxUnzippedBytes: KB, maxEntries: 10 }, all))).toBeInstanceOf(
      ZipFormatError,
    );
  });
});
