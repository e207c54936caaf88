import {
  ArchiveRefusal,
  inflateEntry as inflateBounded,
  unzipBounded as unzipWithin,
  readZipDirectory as readDirectory,
  type ZipEntry,
} from '../../../common/archive/index.js';
import { OcrErrors } from '../ocr.errors.js';
import { MAX_ENTRY_RATIO, RATIO_GRACE_BYTES, type ArchiveLimits } from './archive-limits.js';

const OFFICE_RATIO = { maxRatio: MAX_ENTRY_RATIO, graceBytes: RATIO_GRACE_BYTES };

/**
 * Runs a read of the shared ZIP reader (`src/common/archive`), turning a limit it reports into
 * `ocr.archive_too_large`; a malformed archive stays a `ZipFormatError`.
 */
function asOcr<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ArchiveRefusal && error.reason !== 'damaged') {
      throw OcrErrors.archiveTooLarge(error.details.limit ?? error.message);
    }
    throw error;
  }
}

/** The central directory; more than `maxEntries` is `ocr.archive_too_large`. */
export const readZipDirectory = (bytes: Uint8Array, maxEntries: number): ZipEntry[] =>
  asOcr(() => readDirectory(bytes, maxEntries));

/**
 * Inflates one entry, stopping as soon as it passes `budget` bytes or the Office ratio limit; the
 * `ocr.archive_too_large` error names `budgetLabel` when the budget is what stopped it.
 */
export const inflateEntry = (
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: number,
  budgetLabel: string,
): Uint8Array => asOcr(() => inflateBounded(bytes, entry, budget, budgetLabel, OFFICE_RATIO));

/**
 * The entries `wanted` selects, inflated under the limits: more than `maxEntries` entries, more than
 * `maxUnzippedBytes` inflated in total (counted on the bytes inflated, entry after entry, so entries
 * sharing their data count each time), or one entry past the ratio limit is `ocr.archive_too_large`; a
 * malformed archive is a `ZipFormatError`. Directories are skipped.
 */
export const unzipBounded = (
  bytes: Uint8Array,
  limits: ArchiveLimits,
  wanted: (name: string) => boolean,
): Record<string, Uint8Array> => asOcr(() => unzipWithin(bytes, { ...limits, ...OFFICE_RATIO }, wanted));
