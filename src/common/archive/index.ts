export {
  ArchiveRefusal,
  ZipFormatError,
  type ArchiveRefusalDetails,
  type ArchiveRefusalReason,
} from './archive.errors.js';
export {
  inflateEntries,
  inflateEntry,
  unzipBounded,
  type BoundedUnzipLimits,
  type RatioLimit,
} from './bounded-inflate.js';
export { readZipDirectory, storedBytes, unixFileTypeOf, type ZipEntry } from './zip-directory.js';
export { readSafeArchive, type ArchiveFile, type SafeArchiveLimits } from './safe-archive.js';
