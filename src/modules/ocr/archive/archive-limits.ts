import type { OcrSettings } from '../ocr-settings.js';

/** What an Office document (a ZIP) may unpack to; checked on the bytes actually inflated. */
export interface ArchiveLimits {
  /** Total bytes inflated from the archive (`OCR_MAX_UNZIPPED_BYTES`). */
  maxUnzippedBytes: number;
  maxEntries: number;
}

/** Entries an Office document may have; real documents have hundreds at most. */
export const MAX_ARCHIVE_ENTRIES = 20_000;

/**
 * An entry over `RATIO_GRACE_BYTES` may inflate to at most this many times its compressed size
 * (a zip bomb's entries go far past it). Deflate tops out near 1032; Apache POI, which reads the same
 * formats, refuses past 100 by default; twice that leaves room for very repetitive sheets.
 */
export const MAX_ENTRY_RATIO = 200;

/** Entries up to this size inflated are not held to the ratio. */
export const RATIO_GRACE_BYTES = 1024 * 1024;

export const archiveLimitsOf = (settings: OcrSettings): ArchiveLimits => ({
  maxUnzippedBytes: settings.maxUnzippedBytes,
  maxEntries: MAX_ARCHIVE_ENTRIES,
});
