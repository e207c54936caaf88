import { SKILL_LIMITS } from '../skills-limits.js';
import { SkillsErrors } from '../skills.errors.js';

export const ROOT_SKILL_FILE = 'SKILL.md';

/**
 * A file's path inside a skill, as given by a client or an archive: relative, `/`-separated, no empty,
 * `.` or `..` segments, no backslash, NUL or other control characters, bounded. Returns it unchanged;
 * refuses (400 `skills.invalid_path`) before anything touches the disk.
 */
export function checkSkillFilePath(path: unknown): string {
  if (typeof path !== 'string' || path.length === 0) throw SkillsErrors.invalidPath(String(path), 'is empty');
  if (path.length > SKILL_LIMITS.maxPathChars) throw SkillsErrors.invalidPath(path, 'is too long');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) {
    throw SkillsErrors.invalidPath(path, 'holds a backslash, NUL or control character');
  }
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw SkillsErrors.invalidPath(path, 'is absolute');
  const segments = path.split('/');
  if (segments.length > SKILL_LIMITS.maxDepth) throw SkillsErrors.invalidPath(path, 'is too deep');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw SkillsErrors.invalidPath(path, 'has an empty, "." or ".." segment');
    }
    if (segment.length > SKILL_LIMITS.maxSegmentChars)
      throw SkillsErrors.invalidPath(path, 'has a name that is too long');
  }
  return path;
}

/** UTF-8 text or nothing: the editing API handles text files only. */
export function decodeUtf8Text(path: string, bytes: Buffer): string {
  if (bytes.includes(0)) throw SkillsErrors.notText(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw SkillsErrors.notText(path);
  }
}
