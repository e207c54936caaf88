/** Bounds on what one file tool call may touch or return; each keeps a model's context and a worker's memory safe. */
export const WORKSPACE_LIMITS = {
  ls: { maxEntries: 1000 },
  read: {
    defaultLineLimit: 2000,
    maxLineChars: 2000,
    /**
     * Characters of one page, and never more than `tools.resultInlineChars` (TOOL_RESULT_INLINE_CHARS):
     * read_file is exempt from large-result offloading because it keeps within that itself.
     */
    maxOutputChars: 60_000,
  },
  write: { maxBytes: 10 * 1024 * 1024 },
  edit: { maxFileBytes: 10 * 1024 * 1024 },
  walk: { maxEntries: 20_000, maxDepth: 32 },
  glob: {
    maxResults: 1000,
    maxPatternChars: 500,
    /** `*` runs, `?` and extglob openers: each multiplies the ways a name can be split. */
    maxWildcards: 12,
    matchBudgetMs: 2000,
  },
  grep: {
    maxMatches: 500,
    maxLineChars: 500,
    maxFiles: 5000,
    maxFileBytes: 2 * 1024 * 1024,
    maxTotalBytes: 16 * 1024 * 1024,
    regexBudgetMs: 2000,
  },
  /**
   * What a saved large result shows the model: at most this much of its head and of its tail (less
   * under a small TOOL_RESULT_INLINE_CHARS, so the preview stays below the limit).
   */
  largeResult: { headChars: 2000, tailChars: 1000, maxToolNameChars: 64 },
  quota: {
    /** A measured usage figure is trusted this long (writes keep it current; this catches the rest). */
    measurementTtlMs: 60_000,
    /** Entries one measurement visits; a workspace with more is treated as full. */
    maxMeasuredEntries: 200_000,
  },
  /** Bytes sniffed for a NUL byte to tell binary from text (what git and grep do). */
  binarySniffBytes: 8000,
} as const;
