import { DomainError, type ErrorCode, type ErrorKind } from '../../../common/errors/index.js';
import type { ArchiveLimits } from '../archive/archive-limits.js';
import type { DocumentType } from '../detect-type.js';
import { OcrErrors } from '../ocr.errors.js';

/** Text a worker decodes (UTF-8) and turns into Markdown: as it is, from HTML, or from CSV. */
export type TextFormat = 'text' | 'html' | 'csv';
export type ConversionType = DocumentType | TextFormat;

/** What the main thread hands a conversion worker (cloned into it as `workerData`). */
export interface ConversionJob {
  type: ConversionType;
  bytes: Uint8Array;
  maxPdfPages: number;
  /** Office documents are inflated under these, counted on the bytes actually inflated. */
  archiveLimits: ArchiveLimits;
  /** A private, empty directory the worker may write to; removed once the worker has exited. */
  scratchDir: string;
}

/** A `DomainError` as it crosses the thread boundary. */
export interface SerializedError {
  kind: ErrorKind;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export type ConversionReply = { ok: true; markdown: string } | { ok: false; error: SerializedError };

/**
 * Domain errors cross as they are; anything else a parser throws means the file could not be read,
 * and only its message crosses (never a stack).
 */
export function serializeError(error: unknown, type: ConversionType): SerializedError {
  const domain =
    error instanceof DomainError
      ? error
      : OcrErrors.unreadable(type.toUpperCase(), error instanceof Error ? error.message : String(error));
  return { kind: domain.kind, code: domain.code, message: domain.message, details: domain.details };
}

export function deserializeError(error: SerializedError): DomainError {
  return new DomainError(error.kind, error.code, error.message, { details: error.details });
}
