import { DomainError } from '../../common/errors/index.js';
import type { ArchiveLimits } from './archive/archive-limits.js';
import { inflateEntry, readZipDirectory } from './archive/bounded-unzip.js';
import { OcrErrors } from './ocr.errors.js';

export const IMAGE_TYPES = ['png', 'jpeg', 'webp', 'bmp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export type DocumentType = 'pdf' | 'docx' | 'xlsx' | 'pptx' | ImageType;

export const isImageType = (type: DocumentType): type is ImageType =>
  (IMAGE_TYPES as readonly string[]).includes(type);

export const MIME_TYPES: Readonly<Record<DocumentType, string>> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

/** A supported type, or what was found instead (`ole2`, `gif`, `tiff`, `zip`, `damaged_zip`, `unknown`). */
export type Detection = { supported: true; type: DocumentType } | { supported: false; detected: string };

/** The main part's content type names the kind of Office document (macro-enabled variants included). */
const OFFICE_MAIN_PARTS: ReadonlyArray<[DocumentType, string[]]> = [
  [
    'docx',
    [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
      'application/vnd.ms-word.document.macroenabled.main+xml',
    ],
  ],
  [
    'xlsx',
    [
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      'application/vnd.ms-excel.sheet.macroenabled.main+xml',
    ],
  ],
  [
    'pptx',
    [
      'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      'application/vnd.ms-powerpoint.presentation.macroenabled.main+xml',
    ],
  ],
];

const CONTENT_TYPES_PART = '[Content_Types].xml';
const MAX_CONTENT_TYPES_BYTES = 1024 * 1024;
const BMP_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

const has = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((value, i) => bytes[offset + i] === value);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * What a file is, from its bytes and never from its name: magic numbers, and for a ZIP the Office
 * package's `[Content_Types].xml`. A ZIP with too many entries, or that declares more than the limit
 * unpacked, is refused with `ocr.archive_too_large` before anything is inflated. Declared sizes can lie:
 * only `[Content_Types].xml` is inflated here, and stopped at 1 MiB; the conversion worker inflates the
 * rest under the limits, counting the bytes it actually gets.
 */
export function detectDocumentType(bytes: Uint8Array, limits: ArchiveLimits): Detection {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  const found = (type: DocumentType): Detection => ({ supported: true, type });
  const other = (detected: string): Detection => ({ supported: false, detected });

  if (has(bytes, ascii('%PDF-'))) return found('pdf');
  if (has(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return found('png');
  if (has(bytes, [0xff, 0xd8, 0xff])) return found('jpeg');
  if (has(bytes, ascii('RIFF')) && has(bytes, ascii('WEBP'), 8)) return found('webp');
  if (has(bytes, ascii('BM')) && bytes.length >= 18 && BMP_HEADER_SIZES.has(head.readUInt32LE(14))) {
    return found('bmp');
  }
  if (has(bytes, ascii('GIF87a')) || has(bytes, ascii('GIF89a'))) return other('gif');
  if (has(bytes, [0x49, 0x49, 0x2a, 0x00]) || has(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return other('tiff');
  if (has(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return other('ole2');
  if (has(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const office = officeTypeOf(bytes, limits);
    return office === 'zip' || office === 'damaged_zip' ? other(office) : found(office);
  }
  // PDF readers accept the header anywhere in the first 1024 bytes; checked after the exact signatures.
  if (head.includes('%PDF-')) return found('pdf');
  return other('unknown');
}

function officeTypeOf(bytes: Uint8Array, limits: ArchiveLimits): DocumentType | 'zip' | 'damaged_zip' {
  let contentTypes: Uint8Array | undefined;
  try {
    const entries = readZipDirectory(bytes, limits.maxEntries);
    const declared = entries.reduce((sum, entry) => sum + entry.declaredSize, 0);
    if (declared > limits.maxUnzippedBytes)
      throw OcrErrors.archiveTooLarge(`${limits.maxUnzippedBytes} bytes`);
    const part = entries.find(
      (entry) =>
        entry.name === CONTENT_TYPES_PART &&
        entry.compressedSize <= MAX_CONTENT_TYPES_BYTES &&
        entry.declaredSize <= MAX_CONTENT_TYPES_BYTES,
    );
    contentTypes =
      part &&
      inflateEntry(
        bytes,
        part,
        MAX_CONTENT_TYPES_BYTES,
        `${MAX_CONTENT_TYPES_BYTES} bytes in ${CONTENT_TYPES_PART}`,
      );
  } catch (error) {
    if (error instanceof DomainError) throw error;
    return 'damaged_zip';
  }
  if (contentTypes === undefined) return 'zip';
  const xml = new TextDecoder().decode(contentTypes).toLowerCase();
  const declares = (type: string) => xml.includes(`"${type}"`) || xml.includes(`'${type}'`);
  const match = OFFICE_MAIN_PARTS.find(([, types]) => types.some(declares));
  return match?.[0] ?? 'zip';
}
