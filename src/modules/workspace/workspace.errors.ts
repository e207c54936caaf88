import { truncate } from '../../common/text/truncate.js';
import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

/**
 * Why a path was refused. Tools show it to the model; the HTTP side maps it to 400 (syntax that never
 * reaches the disk) or 404 (anything that would reveal another scope), see `WorkspaceService`.
 */
export type PathRefusal =
  | 'invalid_syntax'
  | 'relative_without_workdir'
  | 'escapes_root'
  | 'outside_workspace'
  | 'symlink_escape'
  | 'read_only'
  | 'not_shared'
  | 'not_a_workdir'
  | 'outside_workdir';

const REFUSAL_MESSAGES: Record<PathRefusal, string> = {
  invalid_syntax: 'is not a valid path',
  relative_without_workdir: 'is relative and there is no workdir to resolve it against',
  escapes_root: 'climbs above the filesystem root',
  outside_workspace: 'is outside /home/gem/user-data and /home/gem/skills/<slug>',
  symlink_escape: 'goes through a symbolic link that leads outside its root',
  read_only: 'is read-only (shared skills cannot be changed; write to your workdir instead)',
  not_shared: 'is not a skill shared with you',
  not_a_workdir: 'is not a project workdir (/home/gem/user-data/workdir/<project>/)',
  outside_workdir: "is not inside the thread's workdir",
};

export const WorkspaceErrorCode = {
  PATH_NOT_ALLOWED: 'workspace.path_not_allowed',
  NOT_FOUND: 'workspace.not_found',
  NOT_A_FILE: 'workspace.not_a_file',
  NOT_A_DIRECTORY: 'workspace.not_a_directory',
  IS_A_DIRECTORY: 'workspace.is_a_directory',
  TOO_LARGE: 'workspace.too_large',
  BINARY_FILE: 'workspace.binary_file',
  OFFSET_OUT_OF_RANGE: 'workspace.offset_out_of_range',
  EDIT_NO_MATCH: 'workspace.edit_no_match',
  EDIT_NOT_UNIQUE: 'workspace.edit_not_unique',
  INVALID_PATTERN: 'workspace.invalid_pattern',
  SEARCH_TIMEOUT: 'workspace.search_timeout',
  INVALID_PROJECT: 'workspace.invalid_project',
  QUOTA_EXCEEDED: 'workspace.quota_exceeded',
  NAMES_EXHAUSTED: 'workspace.names_exhausted',
} as const;
export type WorkspaceErrorCode = (typeof WorkspaceErrorCode)[keyof typeof WorkspaceErrorCode];
declareErrorCodes(WorkspaceErrorCode);

export const WorkspaceErrors = {
  pathNotAllowed: (path: string, reason: PathRefusal) =>
    new DomainError(
      'forbidden',
      WorkspaceErrorCode.PATH_NOT_ALLOWED,
      `The path "${truncate(path)}" ${REFUSAL_MESSAGES[reason]}.`,
      {
        details: { path: truncate(path), reason },
      },
    ),
  /** The same refusal of a path a client sent over HTTP (bad input, 400), not a tool's (403). */
  pathNotAllowedAsInput: (refusal: DomainError) =>
    new DomainError('invalid', WorkspaceErrorCode.PATH_NOT_ALLOWED, refusal.message, {
      details: refusal.details,
    }),
  notFound: (path: string) =>
    new DomainError(
      'not_found',
      WorkspaceErrorCode.NOT_FOUND,
      `No such file or directory: ${truncate(path)}`,
      {
        details: { path: truncate(path) },
      },
    ),
  notAFile: (path: string) =>
    new DomainError('invalid', WorkspaceErrorCode.NOT_A_FILE, `${truncate(path)} is not a regular file.`, {
      details: { path: truncate(path) },
    }),
  notADirectory: (path: string) =>
    new DomainError(
      'invalid',
      WorkspaceErrorCode.NOT_A_DIRECTORY,
      `${truncate(path)} (or one of its parents) is not a directory.`,
      { details: { path: truncate(path) } },
    ),
  isADirectory: (path: string) =>
    new DomainError(
      'invalid',
      WorkspaceErrorCode.IS_A_DIRECTORY,
      `${truncate(path)} is a directory; use ls.`,
      {
        details: { path: truncate(path) },
      },
    ),
  tooLarge: (path: string, limitBytes: number) =>
    new DomainError(
      'too_large',
      WorkspaceErrorCode.TOO_LARGE,
      `${truncate(path)} is larger than the limit of ${limitBytes} bytes.`,
      { details: { path: truncate(path), limit_bytes: limitBytes } },
    ),
  binaryFile: (path: string) =>
    new DomainError(
      'unprocessable',
      WorkspaceErrorCode.BINARY_FILE,
      `${truncate(path)} is a binary file; read_file returns text only. ` +
        'For PDF, Office or image documents use ocr_parse_file.',
      { details: { path: truncate(path) } },
    ),
  offsetOutOfRange: (path: string, offset: number, lineCount: number) =>
    new DomainError(
      'invalid',
      WorkspaceErrorCode.OFFSET_OUT_OF_RANGE,
      `offset ${offset} is past the end of ${truncate(path)} (${lineCount} lines).`,
      { details: { path: truncate(path), offset, line_count: lineCount } },
    ),
  editNoMatch: (path: string) =>
    new DomainError(
      'unprocessable',
      WorkspaceErrorCode.EDIT_NO_MATCH,
      `old_string was not found in ${truncate(path)}; read the file and copy the text exactly.`,
      { details: { path: truncate(path) } },
    ),
  editNotUnique: (path: string, occurrences: number) =>
    new DomainError(
      'unprocessable',
      WorkspaceErrorCode.EDIT_NOT_UNIQUE,
      `old_string occurs ${occurrences} times in ${truncate(path)}; add surrounding context to make it ` +
        'unique, or set replace_all to true.',
      { details: { path: truncate(path), occurrences } },
    ),
  invalidPattern: (pattern: string, problem: string) =>
    new DomainError(
      'invalid',
      WorkspaceErrorCode.INVALID_PATTERN,
      `Invalid pattern "${truncate(pattern)}": ${problem}`,
      {
        details: { pattern: truncate(pattern) },
      },
    ),
  searchTimeout: (budgetMs: number, matcher: 'regex' | 'glob') =>
    new DomainError(
      'timeout',
      WorkspaceErrorCode.SEARCH_TIMEOUT,
      matcher === 'regex'
        ? `The regular expression search did not finish within ${budgetMs} ms and was stopped. ` +
            'Simplify the pattern (avoid nested quantifiers such as (a+)+), narrow the path, or use literal: true.'
        : `Matching the glob did not finish within ${budgetMs} ms and was stopped. ` +
            'Use fewer wildcards (a*a*a*… backtracks) or narrow the path.',
      { details: { budget_ms: budgetMs } },
    ),
  invalidProject: (project: string) =>
    new DomainError(
      'invalid',
      WorkspaceErrorCode.INVALID_PROJECT,
      'A project name is 1-64 letters, digits, "-" or "_", starting with a letter or digit.',
      { details: { project: truncate(project) } },
    ),
  quotaExceeded: (quotaBytes: number, usedBytes: number, requestedBytes: number) =>
    new DomainError(
      'too_large',
      WorkspaceErrorCode.QUOTA_EXCEEDED,
      `The workspace quota of ${quotaBytes} bytes would be exceeded: ${usedBytes} bytes are used and this ` +
        `write needs ${requestedBytes} more. Nothing was written; make the content smaller, or free space ` +
        'by overwriting files you no longer need with shorter ones.',
      { details: { quota_bytes: quotaBytes, used_bytes: usedBytes, requested_bytes: requestedBytes } },
    ),
  /** A tool ran, but its oversized result could not be saved (see `LargeToolResults`). */
  largeResultOverQuota: (quotaExceeded: DomainError, resultChars: number) =>
    new DomainError(
      'too_large',
      WorkspaceErrorCode.QUOTA_EXCEEDED,
      `The tool ran, but its result (${resultChars} characters) is too long to show and saving it to ` +
        'large_tool_results/ would exceed the workspace quota, so the result is lost. Free space in the ' +
        'workspace (overwrite files you no longer need with shorter ones) or ask the tool for less, then ' +
        'call it again.',
      { details: { ...quotaExceeded.details, result_chars: resultChars } },
    ),
  namesExhausted: (path: string) =>
    new DomainError(
      'conflict',
      WorkspaceErrorCode.NAMES_EXHAUSTED,
      `Too many files named like ${truncate(path)}.`,
      {
        details: { path: truncate(path) },
      },
    ),
};
