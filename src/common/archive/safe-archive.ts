import { ArchiveRefusal } from './archive.errors.js';
import { inflateEntries, type RatioLimit } from './bounded-inflate.js';
import { comparisonKey, segmentsOf } from './entry-paths.js';
import { readZipDirectory, unixFileTypeOf, type ZipEntry } from './zip-directory.js';

export interface SafeArchiveLimits extends RatioLimit {
  /** File entries (directories not counted). */
  maxFiles: number;
  /** All entries, directories included; checked on the central directory's count before reading it. */
  maxEntries: number;
  /** Path segments of an entry (`a/b/c.md` is 3). */
  maxDepth: number;
  /** Bytes inflated in total, counted on what inflation produces. */
  maxUnzippedBytes: number;
}

/** One file of an archive: its stored path (checked safe) and its bytes exactly as inflated. */
export interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
}

/** Every entry's name and type, and the counts, before a byte is inflated; returns the file entries. */
function checkEntries(entries: readonly ZipEntry[], limits: SafeArchiveLimits): ZipEntry[] {
  const files: ZipEntry[] = [];
  const fileKeys = new Set<string>();
  const folderKeys = new Set<string>();
  const seen = new Set<string>();
  const duplicate = (entry: ZipEntry) =>
    new ArchiveRefusal(
      'duplicate',
      `The archive holds ${entry.name} twice (or a file and a folder of that name).`,
      {
        path: entry.name,
      },
    );
  for (const entry of entries) {
    const segments = segmentsOf(entry.name);
    if (segments.length > limits.maxDepth)
      throw ArchiveRefusal.overLimit('too_deep', `${limits.maxDepth} levels`, entry.name);
    const type = unixFileTypeOf(entry);
    if (type === 'symlink')
      throw new ArchiveRefusal('symlink', `The entry ${entry.name} is a symbolic link.`, {
        path: entry.name,
      });
    if (type === 'special')
      throw new ArchiveRefusal('path_unsafe', `The entry ${entry.name} is not a regular file.`, {
        path: entry.name,
      });
    const isFolder = entry.name.endsWith('/') || type === 'directory';
    const key = comparisonKey(segments);
    // the same name twice, or a file named like a folder another entry already sits in
    if (seen.has(key) || (!isFolder && folderKeys.has(key))) throw duplicate(entry);
    seen.add(key);
    (isFolder ? folderKeys : fileKeys).add(key);
    // every folder this entry sits in: a file of that name elsewhere would clash with it
    for (let depth = 1; depth < segments.length; depth++) {
      const parent = comparisonKey(segments.slice(0, depth));
      if (fileKeys.has(parent)) throw duplicate(entry);
      folderKeys.add(parent);
    }
    if (!isFolder) files.push(entry);
  }
  if (files.length > limits.maxFiles)
    throw ArchiveRefusal.overLimit('too_many_files', `${limits.maxFiles} files`);
  const declared = files.reduce((sum, entry) => sum + entry.declaredSize, 0);
  if (declared > limits.maxUnzippedBytes)
    throw ArchiveRefusal.overLimit('too_large', `${limits.maxUnzippedBytes} bytes`);
  return files;
}

/**
 * The files of a ZIP, held in memory, for a caller that will write them under a folder of its own.
 * Everything is checked before anything is inflated (entry count, names, types, duplicates, depth, file
 * count, declared total), then the files are inflated under the byte and ratio caps, counting the bytes
 * actually produced (declared sizes can lie). Any violation is an `ArchiveRefusal` naming the reason;
 * nothing is ever written to disk here.
 */
export function readSafeArchive(bytes: Uint8Array, limits: SafeArchiveLimits): { entries: ArchiveFile[] } {
  const files = checkEntries(readZipDirectory(bytes, limits.maxEntries), limits);
  const inflated = inflateEntries(bytes, files, limits);
  return { entries: files.map((entry) => ({ path: entry.name, bytes: inflated.get(entry)! })) };
}
