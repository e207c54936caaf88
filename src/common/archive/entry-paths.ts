import { ArchiveRefusal } from './archive.errors.js';

// C0 controls (NUL included) and DEL: never part of a name anyone means to write.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const DRIVE = /^[A-Za-z]:/;

/**
 * The path segments of a stored entry name (a trailing `/` marks a directory), or `path_unsafe` when
 * writing it under a folder could land anywhere else, or be read differently by another tool:
 * absolute (`/x`, `C:x`), `..` or `.` segments, empty segments (`a//b`), backslashes (a separator on
 * Windows), NUL and other control characters.
 */
export function segmentsOf(name: string): string[] {
  const unsafe = (why: string) =>
    new ArchiveRefusal('path_unsafe', `The entry ${name} ${why}.`, { path: name });
  if (CONTROL.test(name)) throw unsafe('contains a control character');
  if (name.includes('\\')) throw unsafe('contains a backslash');
  if (name.startsWith('/') || DRIVE.test(name)) throw unsafe('is an absolute path');
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  for (const segment of segments) {
    if (segment === '..' || segment === '.') throw unsafe(`has a "${segment}" segment`);
    if (segment === '') throw unsafe('has an empty segment');
  }
  return segments;
}

/**
 * How two names are compared for duplicates: NFC and lower case, as case-insensitive and
 * normalization-insensitive file systems (macOS, Windows) would store them, so two entries never end up
 * as one file depending on where they are extracted.
 */
export const comparisonKey = (segments: readonly string[]): string =>
  segments.join('/').normalize('NFC').toLowerCase();
