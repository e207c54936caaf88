/** Bounds on what a skill may hold (the archive limits, `archive/skill-archive.ts`, share the file count). */
export const SKILL_LIMITS = {
  maxFiles: 1000,
  maxDepth: 64,
  /** One file read or written through the API (UTF-8 text). */
  maxTextFileBytes: 1024 * 1024,
  /** A whole installed package, all files together. */
  maxPackageBytes: 100 * 1024 * 1024,
  maxPathChars: 1024,
  maxSegmentChars: 255,
} as const;
