import { truncate } from '../../common/text/truncate.js';
import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

const SUPPORTED = 'PDF, Word (.docx), Excel (.xlsx), PowerPoint (.pptx) and PNG, JPEG, WebP or BMP images';

const UNSUPPORTED_HINTS: Readonly<Record<string, string>> = {
  ole2: 'It is a legacy binary Office file (.doc, .xls, .ppt): save it as .docx, .xlsx or .pptx first.',
  gif: 'GIF images are not read: convert it to PNG first.',
  tiff: 'TIFF images are not read: convert it to PNG first.',
  zip: 'It is a ZIP archive but not a Word, Excel or PowerPoint document.',
  damaged_zip: 'It looks like a ZIP archive (as Office documents are) but cannot be read: it may be damaged.',
};

export const OcrErrorCode = {
  DISABLED: 'ocr.disabled',
  ENGINE_UNAVAILABLE: 'ocr.engine_unavailable',
  UNSUPPORTED_TYPE: 'ocr.unsupported_type',
  FILE_TOO_LARGE: 'ocr.file_too_large',
  ARCHIVE_TOO_LARGE: 'ocr.archive_too_large',
  TOO_MANY_PAGES: 'ocr.too_many_pages',
  IMAGE_TOO_LARGE: 'ocr.image_too_large',
  TOO_COMPLEX: 'ocr.too_complex',
  UNREADABLE: 'ocr.unreadable',
  NO_TEXT: 'ocr.no_text',
  OUTPUT_NAMES_EXHAUSTED: 'ocr.output_names_exhausted',
  REMOTE_FAILED: 'ocr.remote_failed',
} as const;
export type OcrErrorCode = (typeof OcrErrorCode)[keyof typeof OcrErrorCode];
declareErrorCodes(OcrErrorCode);

/** Stable `ocr.*` codes the model and clients can act on. */
export const OcrErrors = {
  disabled: () =>
    new DomainError(
      'unavailable',
      OcrErrorCode.DISABLED,
      'Document parsing (OCR) is disabled on this deployment.',
    ),
  engineUnavailable: (engine: string, reason: string) =>
    new DomainError(
      'unavailable',
      OcrErrorCode.ENGINE_UNAVAILABLE,
      `The ${engine} OCR engine is not available: ${reason}`,
      {
        details: { engine },
      },
    ),
  unsupportedType: (path: string, detected: string) =>
    new DomainError(
      'unprocessable',
      OcrErrorCode.UNSUPPORTED_TYPE,
      [
        `${truncate(path)} is not a supported document.`,
        UNSUPPORTED_HINTS[detected],
        `Supported: ${SUPPORTED}.`,
      ]
        .filter((part) => part !== undefined)
        .join(' '),
      { details: { path: truncate(path), detected } },
    ),
  fileTooLarge: (path: string, sizeBytes: number, limitBytes: number) =>
    new DomainError(
      'too_large',
      OcrErrorCode.FILE_TOO_LARGE,
      `${truncate(path)} has ${sizeBytes} bytes; documents are parsed up to ${limitBytes} bytes.`,
      { details: { path: truncate(path), size_bytes: sizeBytes, limit_bytes: limitBytes } },
    ),
  archiveTooLarge: (limit: string) =>
    new DomainError(
      'too_large',
      OcrErrorCode.ARCHIVE_TOO_LARGE,
      `The document unpacks to more than ${limit}; it is refused as a possible ZIP bomb.`,
      { details: { limit } },
    ),
  tooManyPages: (pages: number, limit: number) =>
    new DomainError(
      'too_large',
      OcrErrorCode.TOO_MANY_PAGES,
      `The PDF has ${pages} pages; documents are parsed up to ${limit} pages. Split it first.`,
      { details: { pages, limit_pages: limit } },
    ),
  imageTooLarge: (width: number, height: number, limitPixels: number) =>
    new DomainError(
      'too_large',
      OcrErrorCode.IMAGE_TOO_LARGE,
      `The image is ${width}×${height} pixels; images are recognised up to ${limitPixels} pixels. Scale it down first.`,
      { details: { width, height, limit_pixels: limitPixels } },
    ),
  tooComplex: (over: { timeoutMs?: number } = {}) =>
    new DomainError(
      'too_large',
      OcrErrorCode.TOO_COMPLEX,
      over.timeoutMs === undefined
        ? 'The document needs more memory to parse than a conversion may use.'
        : `The document takes longer to convert than a conversion may (${Math.round(over.timeoutMs / 1000)} s).`,
      over.timeoutMs === undefined ? {} : { details: { timeout_ms: over.timeoutMs } },
    ),
  unreadable: (type: string, problem: string) =>
    new DomainError(
      'unprocessable',
      OcrErrorCode.UNREADABLE,
      `The ${type} file could not be read: ${truncate(problem)}`,
      {
        details: { type },
      },
    ),
  noText: (path: string, hint: string) =>
    new DomainError(
      'unprocessable',
      OcrErrorCode.NO_TEXT,
      `No text was found in ${truncate(path)}. ${hint}`.trim(),
      {
        details: { path: truncate(path) },
      },
    ),
  outputNamesExhausted: (name: string) =>
    new DomainError(
      'conflict',
      OcrErrorCode.OUTPUT_NAMES_EXHAUSTED,
      `Too many results named like ${truncate(name)}.`,
      {
        details: { name: truncate(name) },
      },
    ),
  remoteFailed: (problem: string, status?: number) =>
    new DomainError(
      'unavailable',
      OcrErrorCode.REMOTE_FAILED,
      `The OCR service failed: ${truncate(problem)}`,
      {
        details: status === undefined ? {} : { status },
      },
    ),
};
