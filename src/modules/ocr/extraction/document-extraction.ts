import { Injectable } from '@nestjs/common';
import { archiveLimitsOf } from '../archive/archive-limits.js';
import { detectDocumentType, type DocumentType } from '../detect-type.js';
import { LocalEngine } from '../engines/local-engine.js';
import { OcrErrors } from '../ocr.errors.js';
import { OcrSettings } from '../ocr-settings.js';
import type { TextFormat } from '../worker/conversion-job.js';
import { ConversionRunner } from '../worker/conversion-runner.js';

/** The formats other modules may extract (knowledge bases): named by the file's extension. */
export const EXTRACTABLE_TYPES = [
  'md',
  'markdown',
  'txt',
  'html',
  'htm',
  'csv',
  'pdf',
  'docx',
  'xlsx',
] as const;
export type ExtractableType = (typeof EXTRACTABLE_TYPES)[number];

export const isExtractableType = (type: string): type is ExtractableType =>
  (EXTRACTABLE_TYPES as readonly string[]).includes(type);

type TextType = Exclude<ExtractableType, 'pdf' | 'docx' | 'xlsx'>;

const TEXT_FORMATS: Record<TextType, TextFormat> = {
  md: 'text',
  markdown: 'text',
  txt: 'text',
  html: 'html',
  htm: 'html',
  csv: 'csv',
};

const BINARY_TYPES: Partial<Record<ExtractableType, DocumentType>> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
};

/**
 * The document extraction of `ocr_parse_file` for callers outside a workspace: bytes of a known type to
 * normalized Markdown. Every format is parsed and cleaned up in a conversion worker thread (never on the
 * event loop) under the OCR limits and time budget; PDF and Office bytes are first checked to be what the
 * name says. Failures are `ocr.*` domain errors (`ocr.unreadable`, `ocr.unsupported_type`).
 */
@Injectable()
export class DocumentExtraction {
  constructor(
    private readonly settings: OcrSettings,
    private readonly local: LocalEngine,
    private readonly runner: ConversionRunner,
  ) {}

  async toMarkdown(
    fileName: string,
    type: ExtractableType,
    bytes: Uint8Array,
    signal: AbortSignal,
  ): Promise<string> {
    const binary = BINARY_TYPES[type];
    if (binary !== undefined) {
      const detection = detectDocumentType(bytes, archiveLimitsOf(this.settings));
      if (!detection.supported || detection.type !== binary) {
        throw OcrErrors.unsupportedType(fileName, detection.supported ? detection.type : detection.detected);
      }
      return await this.local.convert({ fileName, type: binary, bytes }, signal);
    }
    return await this.runner.convertText(TEXT_FORMATS[type as TextType], bytes, signal);
  }
}
