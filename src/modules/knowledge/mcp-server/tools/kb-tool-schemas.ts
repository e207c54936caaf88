import { z } from 'zod';

/** Limits of the five knowledge tools (models and skills are written against them: keep them exact). */
export const KB_TOOL_LIMITS = {
  queryTopK: { default: 10, min: 1, max: 50 },
  findMaxWindows: { default: 5, min: 1, max: 20 },
  findWindowSize: { default: 80, min: 1, max: 200 },
  openWindowSize: { default: 1800, min: 1, max: 2000 },
  searchLimit: { default: 300, min: 1, max: 5000 },
  /** Not protocol: bounds on what one call may ask, so no argument can amplify the work. */
  queryChars: 2000,
  patterns: 20,
  patternChars: 500,
  nameChars: 1000,
  /** A regular expression search over one document gets this long in its worker thread. */
  regexBudgetMs: 2000,
  /** Lines longer than this are cut in tool output. */
  lineChars: 2000,
} as const;

const int = (limit: { default: number; min: number; max: number }) =>
  z.number().int().min(limit.min).max(limit.max).default(limit.default);

const kbId = z.string().min(1).max(100).describe('A kb_id from list_kbs.');
const fileId = z.string().min(1).max(100).describe('A file_id from search_file or query_kb results.');

export const LIST_KBS_INPUT = {};

export const QUERY_KB_INPUT = {
  kb_id: kbId,
  query: z.string().trim().min(1).max(KB_TOOL_LIMITS.queryChars).describe('What to look for (any language).'),
  top_k: int(KB_TOOL_LIMITS.queryTopK).describe('How many chunks to return, best first (1-50).'),
  file_name: z
    .string()
    .min(1)
    .max(KB_TOOL_LIMITS.nameChars)
    .optional()
    .describe('Only chunks of the file with exactly this name (case-insensitive).'),
};

export const FIND_KB_DOCUMENT_INPUT = {
  kb_id: kbId,
  file_id: fileId,
  patterns: z
    .array(z.string().min(1).max(KB_TOOL_LIMITS.patternChars))
    .min(1)
    .max(KB_TOOL_LIMITS.patterns)
    .describe('Keywords (or regular expressions with use_regex); a line matches when any of them does.'),
  use_regex: z.boolean().default(false).describe('Treat the patterns as JavaScript regular expressions.'),
  case_sensitive: z.boolean().default(false),
  max_windows: int(KB_TOOL_LIMITS.findMaxWindows).describe('At most this many windows (1-20).'),
  window_size: int(KB_TOOL_LIMITS.findWindowSize).describe(
    'Lines per window, centred on the matching line (1-200).',
  ),
};

export const OPEN_KB_DOCUMENT_INPUT = {
  kb_id: kbId,
  file_id: fileId,
  line: z.number().int().min(1).optional().describe('1-based line to start at (wins over offset).'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('0-based line offset to start at: the next_offset of a previous answer.'),
  window_size: int(KB_TOOL_LIMITS.openWindowSize).describe(
    'Characters of document text to return at most (1-2000); whole lines, at least one.',
  ),
};

export const SEARCH_FILE_INPUT = {
  kb_id: kbId.optional().describe('Only this knowledge base; all visible ones when omitted.'),
  query: z
    .string()
    .max(KB_TOOL_LIMITS.nameChars)
    .optional()
    .describe('Part of the file name (case-insensitive, taken literally); all files when omitted.'),
  offset: z.number().int().min(0).default(0).describe('Files to skip (the next_offset of a previous page).'),
  limit: int(KB_TOOL_LIMITS.searchLimit).describe('Files per page (1-5000).'),
};
