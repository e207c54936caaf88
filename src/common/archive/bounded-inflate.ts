import { inflateRawSync } from 'node:zlib';
import { ArchiveRefusal, ZipFormatError } from './archive.errors.js';
import { readZipDirectory, storedBytes, type ZipEntry } from './zip-directory.js';

/** The compression-ratio cap, on the bytes actually inflated: a bomb's entries go far past real files'. */
export interface RatioLimit {
  /** An entry may inflate to at most this many times its compressed size… */
  maxRatio: number;
  /** …once it inflates past this many bytes (small entries are not held to the ratio). */
  graceBytes: number;
}

export interface BoundedUnzipLimits extends RatioLimit {
  /** Total bytes inflated from the archive, counted on what inflation produces. */
  maxUnzippedBytes: number;
  maxEntries: number;
}

const isOverLimit = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | null)?.code === 'ERR_BUFFER_TOO_LARGE';

/**
 * Inflates one entry, stopping as soon as it passes `budget` bytes or the ratio limit: zlib's
 * `maxOutputLength` ends the inflation there (the declared size plays no part). Past the budget is an
 * `ArchiveRefusal` `too_large` naming `budgetLabel`; past the ratio, `ratio`; a bad entry is a
 * `ZipFormatError`.
 */
export function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: number,
  budgetLabel: string,
  ratio: RatioLimit,
): Uint8Array {
  if (entry.encrypted) throw new ZipFormatError(`${entry.name} is encrypted`);
  const stored = storedBytes(bytes, entry);
  const ratioCap = Math.max(ratio.graceBytes, stored.byteLength * ratio.maxRatio);
  const cap = Math.min(budget, ratioCap);
  const overflow = () =>
    ratioCap < budget
      ? ArchiveRefusal.overLimit(
          'ratio',
          `a ratio of ${ratio.maxRatio} between an entry and its compressed size`,
          entry.name,
        )
      : ArchiveRefusal.overLimit('too_large', budgetLabel, entry.name);
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
 * `entries` of the archive inflated one after the other against one budget of `maxUnzippedBytes`
 * (counted on the bytes inflated, so entries sharing their data count each time).
 */
export function inflateEntries(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  limits: Omit<BoundedUnzipLimits, 'maxEntries'>,
): Map<ZipEntry, Uint8Array> {
  const inflated = new Map<ZipEntry, Uint8Array>();
  const label = `${limits.maxUnzippedBytes} bytes`;
  let remaining = limits.maxUnzippedBytes;
  for (const entry of entries) {
    const data = inflateEntry(bytes, entry, remaining, label, limits);
    remaining -= data.byteLength;
    inflated.set(entry, data);
  }
  return inflated;
}

/**
 * The entries `wanted` selects, inflated under the limits (see `inflateEntries`); more than `maxEntries`
 * entries is refused before any is inflated. Directories are skipped.
 */
export function unzipBounded(
  bytes: Uint8Array,
  limits: BoundedUnzipLimits,
  wanted: (name: string) => boolean,
): Record<string, Uint8Array> {
  const selected = readZipDirectory(bytes, limits.maxEntries).filter(
    (entry) => !entry.name.endsWith('/') && wanted(entry.name),
  );
  const files: Record<string, Uint8Array> = {};
  for (const [entry, data] of inflateEntries(bytes, selected, limits)) files[entry.name] = data;
  return files;
}
