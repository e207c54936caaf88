import { ArchiveRefusal, ZipFormatError } from './archive.errors.js';

/** One file of a ZIP as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  compressedSize: number;
  /** What the archive claims; only ever a pre-check, never trusted for what inflation produces. */
  declaredSize: number;
  localHeaderOffset: number;
  encrypted: boolean;
  /** Unix archivers keep the file mode in the high 16 bits. */
  externalAttributes: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/**
 * The Unix file type an entry declares in its external attributes (`null` when it sets none, as
 * archives written on Windows do). Checked whatever host the archive says made it: an extractor that
 * honours the mode would create the symlink either way.
 */
export function unixFileTypeOf(entry: ZipEntry): 'file' | 'directory' | 'symlink' | 'special' | null {
  const type = (entry.externalAttributes >>> 16) & S_IFMT;
  if (type === 0) return null;
  if (type === S_IFLNK) return 'symlink';
  if (type === S_IFREG) return 'file';
  if (type === S_IFDIR) return 'directory';
  return 'special';
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;

const fail = (problem: string): never => {
  throw new ZipFormatError(problem);
};

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function u64(data: DataView, at: number): number {
  const value = data.getBigUint64(at, true);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? fail('a ZIP64 field is out of range') : Number(value);
}

function findEndOfDirectory(data: DataView): number {
  const last = data.byteLength - 22;
  for (let at = last; at >= Math.max(0, last - MAX_16); at -= 1) {
    if (data.getUint32(at, true) === EOCD) return at;
  }
  return fail('no end of central directory');
}

/** Where the central directory starts and how many entries it lists (ZIP64 records included). */
function directoryOf(data: DataView): { offset: number; count: number } {
  const end = findEndOfDirectory(data);
  let count = data.getUint16(end + 10, true);
  let offset = data.getUint32(end + 16, true);
  if (
    (count === MAX_16 || offset === MAX_32) &&
    end >= 20 &&
    data.getUint32(end - 20, true) === ZIP64_LOCATOR
  ) {
    const record = u64(data, end - 12);
    if (record + 56 > data.byteLength || data.getUint32(record, true) !== ZIP64_EOCD)
      fail('bad ZIP64 record');
    count = u64(data, record + 32);
    offset = u64(data, record + 48);
  }
  return { offset, count };
}

/** The ZIP64 extra field replaces each 32-bit field that is all ones, in this order. */
function applyZip64(data: DataView, extraStart: number, extraEnd: number, entry: ZipEntry): void {
  for (let at = extraStart; at + 4 <= extraEnd;) {
    const id = data.getUint16(at, true);
    const size = data.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      const next = (): number => {
        if (field + 8 > at + 4 + size) fail('short ZIP64 extra field');
        const value = u64(data, field);
        field += 8;
        return value;
      };
      if (entry.declaredSize === MAX_32) entry.declaredSize = next();
      if (entry.compressedSize === MAX_32) entry.compressedSize = next();
      if (entry.localHeaderOffset === MAX_32) entry.localHeaderOffset = next();
      return;
    }
    at += 4 + size;
  }
}

/**
 * The entries of a ZIP, read from its central directory (what JSZip and most readers trust); more than
 * `maxEntries` is an `ArchiveRefusal` (`too_many_entries`), raised before any entry is read. Names are
 * returned as stored, unchecked: a caller that writes them anywhere validates them first
 * (`readSafeArchive`).
 */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  if (bytes.byteLength < 22) fail('too short for a ZIP');
  const data = view(bytes);
  const { offset, count } = directoryOf(data);
  if (count > maxEntries) throw ArchiveRefusal.overLimit('too_many_entries', `${maxEntries} entries`);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > data.byteLength || data.getUint32(at, true) !== CENTRAL) fail('bad central directory');
    const flags = data.getUint16(at + 8, true);
    const nameLength = data.getUint16(at + 28, true);
    const extraLength = data.getUint16(at + 30, true);
    const commentLength = data.getUint16(at + 32, true);
    const nameStart = at + 46;
    if (nameStart + nameLength + extraLength > data.byteLength) fail('bad central directory');
    const entry: ZipEntry = {
      name: new TextDecoder(flags & 0x0800 ? 'utf-8' : 'latin1').decode(
        bytes.subarray(nameStart, nameStart + nameLength),
      ),
      method: data.getUint16(at + 10, true),
      compressedSize: data.getUint32(at + 20, true),
      declaredSize: data.getUint32(at + 24, true),
      localHeaderOffset: data.getUint32(at + 42, true),
      encrypted: (flags & 0x0001) !== 0,
      externalAttributes: data.getUint32(at + 38, true),
    };
    applyZip64(data, nameStart + nameLength, nameStart + nameLength + extraLength, entry);
    entries.push(entry);
    at = nameStart + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The entry's stored (compressed) bytes, found through its local header. */
export function storedBytes(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = view(bytes);
  const at = entry.localHeaderOffset;
  if (at + 30 > data.byteLength || data.getUint32(at, true) !== LOCAL)
    fail(`bad local header for ${entry.name}`);
  const start = at + 30 + data.getUint16(at + 26, true) + data.getUint16(at + 28, true);
  if (start + entry.compressedSize > data.byteLength) fail(`${entry.name} runs past the end of the file`);
  return bytes.subarray(start, start + entry.compressedSize);
}
