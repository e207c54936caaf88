import type { DocumentType } from '../detect-type.js';

export type OcrEngineName = 'local' | 'http';

/** A source file read from the workspace and identified by its bytes. */
export interface SourceDocument {
  /** File name shown to the OCR service (no directories). */
  fileName: string;
  type: DocumentType;
  bytes: Uint8Array;
}

/** Turns a document into Markdown; rejects with `ocr.*` domain errors or the signal's reason. */
export interface OcrEngine {
  readonly name: OcrEngineName;
  /** Why the engine cannot be used now, or null when it can. */
  unavailableReason(): string | null;
  convert(document: SourceDocument, signal: AbortSignal): Promise<string>;
}
