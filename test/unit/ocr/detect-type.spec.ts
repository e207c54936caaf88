import { strToU8, zipSync } from 'fflate';
import type { ArchiveLimits } from '../../../src/modules/ocr/archive/archive-limits';
import { detectDocumentType } from '../../../src/modules/ocr/detect-type';
import { makeDocx } from '../../support/fixtures/make-docx';
import { bloatPart } from '../../support/fixtures/make-lying-zip';
import { makePdf } from '../../support/fixtures/make-pdf';
import { makePptx } from '../../support/fixtures/make-pptx';
import { renderTextImage } from '../../support/fixtures/make-text-image';
import { makeXlsx } from '../../support/fixtures/make-xlsx';

const LIMITS: ArchiveLimits = { maxUnzippedBytes: 64 * 1024 * 1024, maxEntries: 1000 };
const detect = (bytes: Uint8Array, limits = LIMITS) => detectDocumentType(bytes, limits);
const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('detectDocumentType: by magic bytes, never by name', () => {
  it('recognises a real PDF, and one whose header follows some junk within the first 1024 bytes', async () => {
    const pdf = await makePdf([['hello']]);
    expect(detect(pdf)).toEqual({ supported: true, type: 'pdf' });
    expect(detect(Buffer.concat([Buffer.alloc(300, 0x20), pdf]))).toEqual({ supported: true, type: 'pdf' });
  });

  it('tells Word, Excel and PowerPoint packages apart by their main content type', async () => {
    expect(detect(await makeDocx({ title: 't', paragraphs: [] }))).toEqual({ supported: true, type: 'docx' });
    expect(detect(await makeXlsx([{ name: 'S', rows: [['a']] }]))).toEqual({ supported: true, type: 'xlsx' });
    expect(detect(makePptx([['a']]))).toEqual({ supported: true, type: 'pptx' });
  });

  it.each(['png', 'jpeg', 'webp', 'bmp'] as const)('recognises a %s image', (format) => {
    expect(detect(renderTextImage(['x'], format))).toEqual({ supported: true, type: format });
  });

  it.each([
    ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'gif'],
    ['a TIFF', Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'tiff'],
    ['a legacy .doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'ole2'],
    ['a ZIP that is no Office document', Buffer.from(zipSync({ 'notes.txt': strToU8('hi') })), 'zip'],
    ['a damaged ZIP', Buffer.from('PK\x03\x04garbage', 'latin1'), 'damaged_zip'],
    ['plain text that starts like a BMP', Buffer.from('BMW annual report\n'.repeat(4)), 'unknown'],
    ['plain text', Buffer.from('%PD not quite a PDF'), 'unknown'],
    ['an empty file', Buffer.alloc(0), 'unknown'],
  ])('reports %s as unsupported', (_what, bytes, detected) => {
    expect(detect(bytes)).toEqual({ supported: false, detected });
  });

  it('refuses a ZIP that declares more than the limit unpacked, before inflating anything', () => {
    const bomb = Buffer.from(zipSync({ 'zeros.bin': new Uint8Array(4 * 1024 * 1024) }));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(codeOf(() => detect(bomb, { maxUnzippedBytes: 1024 * 1024, maxEntries: 1000 }))).toBe(
      'ocr.archive_too_large',
    );
  });

  it('refuses a ZIP with more entries than the limit', () => {
    const files = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, strToU8('x')]));
    expect(codeOf(() => detect(Buffer.from(zipSync(files)), { ...LIMITS, maxEntries: 10 }))).toBe(
      'ocr.archive_too_large',
    );
  });

  it('stops inflating [Content_Types].xml at 1 MiB whatever size it declares', async () => {
    const docx = await makeDocx({ title: 't', paragraphs: [] });
    const bomb = bloatPart(docx, '[Content_Types].xml', Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(codeOf(() => detect(bomb))).toBe('ocr.archive_too_large');
  });
});
