import { zipSync } from 'fflate';
import type { ArchiveLimits } from './archive-limits.js';
import { unzipBounded } from './bounded-unzip.js';

/** The parts the converters read: XML and relationships (media is never read; images keep alt text). */
const isReadPart = (name: string): boolean => /\.(xml|rels)$/.test(name);

/** The XML parts of an Office package, inflated under `limits` (see `unzipBounded`). */
export function readOfficeParts(bytes: Uint8Array, limits: ArchiveLimits): Record<string, Uint8Array> {
  return unzipBounded(bytes, limits, isReadPart);
}

/**
 * A fresh, stored (uncompressed) ZIP of parts already inflated under the limits, for libraries that
 * insist on opening an archive themselves (mammoth through JSZip, read-excel-file through unzipper):
 * they never see the original, whose sizes may lie.
 */
export function repackParts(parts: Record<string, Uint8Array>): Uint8Array {
  return zipSync(parts, { level: 0 });
}
