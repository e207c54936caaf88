import { z } from 'zod';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';

const path = (what: string) =>
  z
    .string()
    .min(1)
    .max(4096)
    .describe(
      `${what}: an absolute path such as /home/gem/user-data/workdir/<project>/notes.md, ` +
        'or a path relative to the project workdir',
    );

export const lsSchema = z.strictObject({ path: path('Directory to list') });

export const readFileSchema = z.strictObject({
  file_path: path('File to read'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('0-based index of the first line to return, i.e. how many lines to skip (default 0)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(WORKSPACE_LIMITS.read.defaultLineLimit)
    .optional()
    .describe(`How many lines to return (default and maximum ${WORKSPACE_LIMITS.read.defaultLineLimit})`),
});

export const writeFileSchema = z.strictObject({
  file_path: path('File to create or replace'),
  content: z.string().describe('The complete new content of the file (UTF-8 text)'),
});

export const editFileSchema = z.strictObject({
  file_path: path('File to edit'),
  old_string: z.string().min(1).describe('Exact text to replace, including whitespace and indentation'),
  new_string: z.string().describe('Replacement text'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one'),
});

export const globSchema = z.strictObject({
  pattern: z.string().min(1).max(500).describe('Glob relative to `path`, e.g. "**/*.md" or "outputs/*.html"'),
  path: path('Directory to search in (default: the project workdir)').optional(),
});

export const grepSchema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .max(1000)
    .describe('Regular expression (JavaScript syntax), or plain text with literal: true'),
  path: path('File or directory to search (default: the project workdir)').optional(),
  glob: z.string().min(1).max(500).optional().describe('Only search files matching this glob, e.g. "*.py"'),
  literal: z.boolean().optional().describe('Treat pattern as plain text instead of a regular expression'),
  case_insensitive: z.boolean().optional().describe('Ignore letter case'),
});

export const FILE_TOOL_DESCRIPTIONS = {
  ls:
    'List a directory in the workspace: each entry with its type (file, dir, symlink), size in bytes and ' +
    `modification time. At most ${WORKSPACE_LIMITS.ls.maxEntries} entries are returned.`,
  read_file:
    'Read a text file. Lines come back numbered like `cat -n` (line numbers start at 1). By default the first ' +
    `${WORKSPACE_LIMITS.read.defaultLineLimit} lines are returned; for longer files pass offset (lines to ` +
    'skip, 0-based) and limit. Very long lines are cut, and a page ends early when it grows too long ' +
    '(the result then says which offset to read next). Images (png, jpg, gif, webp) are returned as a ' +
    'reference {type: "image", path, mime_type, size}, not inline. Other binary files are refused. ' +
    'Reading a SKILL.md activates that skill.',
  write_file:
    'Create a file, or replace its whole content, creating missing parent directories. Write deliverables ' +
    'under the project workdir (outputs/ for results to present). /home/gem/skills is read-only.',
  edit_file:
    'Replace exact text in an existing file. old_string must match the file exactly (read the file first) ' +
    'and occur once, unless replace_all is true. Returns the number of replacements.',
  glob:
    'Find files by name pattern below a directory (default: the project workdir), newest first. ' +
    'Use "**/" to match at any depth. Hidden entries and symbolic links are skipped; at most ' +
    `${WORKSPACE_LIMITS.glob.maxResults} paths are returned. A pattern holds at most ` +
    `${WORKSPACE_LIMITS.glob.maxWildcards} wildcards.`,
  grep:
    'Search file contents for a regular expression (or plain text with literal: true) below a file or ' +
    'directory (default: the project workdir). Results are `path:line: text`, at most ' +
    `${WORKSPACE_LIMITS.grep.maxMatches} matches. Binary files, hidden entries and files over ` +
    `${WORKSPACE_LIMITS.grep.maxFileBytes / (1024 * 1024)} MiB are skipped; slow regular expressions are stopped.`,
} as const;
