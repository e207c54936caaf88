import { inflateRawSync } from 'node:zlib';
import { OcrErrors } from '../ocr.errors.js';
import { MAX_ENTRY_RATIO, RATIO_GRACE_BYTES, type ArchiveLimits } from './archive-limits.js';
import { readZipDirectory, storedBytes, ZipFormatError, type ZipEntry } from './zip-directory.js';

const RATIO_LIMIT = `a ratio of ${MAX_ENTRY_RATIO} between an entry and its compressed size`;

const isOverLimit = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | null)?.code === 'ERR_BUFFER_TOO_LARGE';

/**
 * Inflates one entry, stopping as soon as it passes `budget` bytes or the ratio limit: zlib's
 * `maxOutputLength` ends the inflation there (the declared size plays no part). The error names
 * `budgetLabel` when the budget is what stopped it.
 */
export function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: number,
  budgetLabel: string,
): Uint8Array {
  if (entry.encrypted) throw new ZipFormatError(`${entry.name} is encrypted`);
  const stored = storedBytes(bytes, entry);
  const ratioCap = Math.max(RATIO_GRACE_BYTES, stored.byteLength * MAX_ENTRY_RATIO);
  const cap = Math.min(budget, ratioCap);
  const overflow = () => OcrErrors.archiveTooLarge(ratioCap < budget ? RATIO_LIMIT : budgetLabel);
  if (entry.method === 0) {
    if (stored.byteLength > budget) throw overflow();
    return stored;
  }
  if (entry.method !== 8) throw new ZipFormatError(`${entry.name} uses compression method ${entry.method}`);
  let inflated: Buffer;
  try {
    // One byte of headroom tells "exactly the cap" from "more than the cap".
    inflated = inflateRawSync(stored, { maxOutputLength: cap + 1 });
  } catch (error) {
    if (isOverLimit(error)) throw overflow();
    throw new ZipFormatError(`${entry.name}: ${(error as Error).message}`);
  }
  if (inflated.byteLength > cap) throw overflow();
  return inflated;
}

/**
 * The entries `wanted` selects, inflated under the limits: more than `maxEntries` entries, more than
 * `maxUnzippedBytes` inflated in total (counted on the bytes inflated, entry after entry, so entries
 * sharing their data count each time), or one entry past the ratio limit is `ocr.archive_too_large`; a
 * malformed archive is a `ZipFormatError`. Directories are skipped.
 */
export function unzipBounded(
  bytes: Uint8Array,
  limits: ArchiveLimits,
  wanted: (name: string) => boolean,
): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const label = `${limits.maxUnzippedBytes} bytes`;
  let remaining = limits.maxUnzippedBytes;
  for (const entry of readZipDirectory(bytes, limits.maxEntries)) {
    if (entry.name.endsWith('/') || !wanted(entry.name)) continue;
    const data = inflateEntry(bytes, entry, remaining, label);
    remaining -= data.byteLength;
    files[entry.name] = data;
  }
  return files;
}
