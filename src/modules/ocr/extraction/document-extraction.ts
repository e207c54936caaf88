import { Injectable } from '@nestjs/common';
import { archiveLimitsOf } from '../archive/archive-limits.js';
import { csvToMarkdown } from '../converters/csv.js';
import { htmlToMarkdown } from '../converters/html-markdown.js';
import { detectDocumentType, type DocumentType } from '../detect-type.js';
import { LocalEngine } from '../engines/local-engine.js';
import { normalizeMarkdown } from '../markdown-result.js';
import { OcrErrors } from '../ocr.errors.js';
import { OcrSettings } from '../ocr-settings.js';

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

const BINARY_TYPES: Partial<Record<ExtractableType, DocumentType>> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
};

/** What a browser would not show of a page: scripts, styles, the head, comments, the doctype. */
const HIDDEN_HTML =
  /<(script|style|head|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<![^>]*>/gi;

/**
 * The document extraction of `ocr_parse_file` for callers outside a workspace: bytes of a known type to
 * normalized Markdown. PDF and Office documents are parsed by the local engine in worker threads (never
 * on the event loop) under the OCR limits, after their bytes are checked to be what the name says; text
 * formats are decoded here. Failures are `ocr.*` domain errors (`ocr.unreadable`, `ocr.unsupported_type`).
 */
@Injectable()
export class DocumentExtraction {
  constructor(
    private readonly settings: OcrSettings,
    private readonly local: LocalEngine,
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
      return normalizeMarkdown(await this.local.convert({ fileName, type: binary, bytes }, signal));
    }
    const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
    switch (type) {
      case 'html':
      case 'htm':
        return normalizeMarkdown(htmlToMarkdown(text.replace(HIDDEN_HTML, '')));
      case 'csv':
        return normalizeMarkdown(csvToMarkdown(text));
      default:
        return normalizeMarkdown(text);
    }
  }
}
