// The OCR module's front door: what other modules may use. Everything else is internal.
export { OcrModule } from './ocr.module.js';
export { OcrErrorCode } from './ocr.errors.js';
export { DocumentExtraction, isExtractableType } from './extraction/document-extraction.js';
