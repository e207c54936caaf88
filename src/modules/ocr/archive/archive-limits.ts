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
 * An entry may inflate to at most this many times its compressed size (RELIABILITY 10)… Deflate reaches
 * about 1032; real Office XML stays well under 100 (Apache POI refuses past 100).
 */
export const MAX_ENTRY_RATIO = 200;

/** …once it is over this size: small entries may compress as well as they like. */
export const RATIO_GRACE_BYTES = 1024 * 1024;

export const archiveLimitsOf = (settings: OcrSettings): ArchiveLimits => ({
  maxUnzippedBytes: settings.maxUnzippedBytes,
  maxEntries: MAX_ARCHIVE_ENTRIES,
});
