import { truncate } from '../../common/text/truncate.js';
import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const SkillsErrorCode = {
  /** Also for skills the caller may not read: their existence is not revealed. */
  NOT_FOUND: 'skills.not_found',
  INVALID_SKILL_MD: 'skills.invalid_skill_md',
  REVISION_CONFLICT: 'skills.revision_conflict',
  BUILTIN_IMMUTABLE: 'skills.builtin_immutable',
  MANAGE_FORBIDDEN: 'skills.manage_forbidden',
  SHARE_SCOPE_FORBIDDEN: 'skills.share_scope_forbidden',
  MANAGE_SCOPE_OUTSIDE_READ_SCOPE: 'skills.manage_scope_outside_read_scope',
  UNKNOWN_DEPENDENCY: 'skills.unknown_dependency',
  DEPENDENCY_CYCLE: 'skills.dependency_cycle',
  ROOT_FILE_REQUIRED: 'skills.root_file_required',
  INVALID_PATH: 'skills.invalid_path',
  SYMLINK_REFUSED: 'skills.symlink_refused',
  FILE_NOT_FOUND: 'skills.file_not_found',
  FILE_EXISTS: 'skills.file_exists',
  NOT_TEXT: 'skills.not_text',
  FILE_TOO_LARGE: 'skills.file_too_large',
  TOO_MANY_FILES: 'skills.too_many_files',
  PACKAGE_TOO_LARGE: 'skills.package_too_large',
  SHARED_INSTALL_FORBIDDEN: 'skills.shared_install_forbidden',
  HAS_DEPENDENTS: 'skills.has_dependents',
  DRAFT_NOT_FOUND: 'skills.draft_not_found',
  DRAFT_LIMIT_REACHED: 'skills.draft_limit_reached',
  NO_SKILL_FOUND: 'skills.no_skill_found',
  NESTED_SKILL_MD: 'skills.nested_skill_md',
  UNSAFE_ARCHIVE: 'skills.unsafe_archive',
  ARCHIVE_TOO_COMPLEX: 'skills.archive_too_complex',
  ARCHIVE_TOO_LARGE: 'skills.archive_too_large',
  INVALID_ARCHIVE: 'skills.invalid_archive',
  UNKNOWN_SKILL_NAMES: 'skills.unknown_skill_names',
  REMOTE_SOURCE_REFUSED: 'skills.remote_source_refused',
  PRELOAD_ROOT_MISSING: 'skills.preload_root_missing',
  RESERVED_TOOL_DEPENDENCY: 'skills.reserved_tool_dependency',
} as const;
export type SkillsErrorCode = (typeof SkillsErrorCode)[keyof typeof SkillsErrorCode];
declareErrorCodes(SkillsErrorCode);

export const SkillsErrors = {
  /** A preloaded skill's root SKILL.md is gone: the run cannot start with it. */
  preloadRootMissing: (slug: string) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.PRELOAD_ROOT_MISSING,
      `The preloaded skill "${truncate(slug)}" has no SKILL.md.`,
      { details: { slug: truncate(slug) } },
    ),
  notFound: (slug: string) =>
    new DomainError('not_found', SkillsErrorCode.NOT_FOUND, `No skill "${truncate(slug)}".`, {
      details: { slug: truncate(slug) },
    }),
  /** `field` names the frontmatter field (or `frontmatter` for the block itself). */
  invalidSkillMd: (field: string, reason: string) =>
    new DomainError('unprocessable', SkillsErrorCode.INVALID_SKILL_MD, `Invalid SKILL.md: ${reason}`, {
      details: { field },
    }),
  revisionConflict: (path: string) =>
    new DomainError(
      'conflict',
      SkillsErrorCode.REVISION_CONFLICT,
      `"${truncate(path)}" was changed since it was read; read it again and reapply the change.`,
      { details: { path: truncate(path) } },
    ),
  builtinImmutable: (slug: string) =>
    new DomainError(
      'conflict',
      SkillsErrorCode.BUILTIN_IMMUTABLE,
      `The builtin skill "${slug}" is maintained in the repository: its files, dependencies and share config cannot be changed here, nor can it be deleted.`,
      { details: { slug } },
    ),
  manageForbidden: (slug: string) =>
    new DomainError(
      'forbidden',
      SkillsErrorCode.MANAGE_FORBIDDEN,
      `You may use but not change the skill "${slug}".`,
      { details: { slug } },
    ),
  shareScopeForbidden: (level: string) =>
    new DomainError(
      'forbidden',
      SkillsErrorCode.SHARE_SCOPE_FORBIDDEN,
      `Only an admin may share a skill at the ${level} level; share it with named users instead.`,
      { details: { level } },
    ),
  manageScopeOutsideReadScope: () =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE,
      'The manage scope must lie inside the read scope.',
    ),
  /** Ids that do not exist and ids that may not be used look the same. */
  unknownDependency: (field: string, ids: string[], reason: string) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.UNKNOWN_DEPENDENCY,
      `Unknown or unusable ${field}: ${ids.join(', ')} (${reason}).`,
      { details: { field, ids, reason } },
    ),
  /** Tools the runtime mounts itself (the subagent tools) cannot be asked for by a skill. */
  reservedToolDependency: (ids: string[]) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.RESERVED_TOOL_DEPENDENCY,
      `${ids.join(', ')} cannot be a tool dependency: the runtime mounts it itself where it applies.`,
      { details: { field: 'tool_dependencies', ids, reason: 'mounted by the runtime' } },
    ),
  dependencyCycle: (cycle: string[]) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.DEPENDENCY_CYCLE,
      `Skill dependencies would form a cycle: ${cycle.join(' → ')}.`,
      { details: { field: 'skill_dependencies', cycle } },
    ),
  rootFileRequired: () =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.ROOT_FILE_REQUIRED,
      'The root SKILL.md cannot be deleted (delete the skill instead).',
      { details: { path: 'SKILL.md' } },
    ),
  invalidPath: (path: string, reason: string) =>
    new DomainError('invalid', SkillsErrorCode.INVALID_PATH, `The path "${truncate(path)}" ${reason}.`, {
      details: { path: truncate(path), reason },
    }),
  symlinkRefused: (path: string) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.SYMLINK_REFUSED,
      `The path "${truncate(path)}" goes through a symbolic link; skills hold regular files only.`,
      { details: { path: truncate(path) } },
    ),
  fileNotFound: (path: string) =>
    new DomainError(
      'not_found',
      SkillsErrorCode.FILE_NOT_FOUND,
      `No file "${truncate(path)}" in this skill.`,
      {
        details: { path: truncate(path) },
      },
    ),
  fileExists: (path: string) =>
    new DomainError('conflict', SkillsErrorCode.FILE_EXISTS, `"${truncate(path)}" already exists.`, {
      details: { path: truncate(path) },
    }),
  notText: (path: string) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.NOT_TEXT,
      `"${truncate(path)}" is not UTF-8 text (only text files are read and edited here).`,
      { details: { path: truncate(path) } },
    ),
  fileTooLarge: (path: string, limitBytes: number) =>
    new DomainError(
      'too_large',
      SkillsErrorCode.FILE_TOO_LARGE,
      `"${truncate(path)}" is over ${limitBytes} bytes.`,
      { details: { path: truncate(path), limit_bytes: limitBytes } },
    ),
  /** All of a skill's files together, after an install or a write. */
  packageTooLarge: (limitBytes: number) =>
    new DomainError(
      'too_large',
      SkillsErrorCode.PACKAGE_TOO_LARGE,
      `A skill holds at most ${limitBytes} bytes in all its files together.`,
      { details: { limit_bytes: limitBytes } },
    ),
  hasDependents: (slug: string, dependents: string[]) =>
    new DomainError(
      'conflict',
      SkillsErrorCode.HAS_DEPENDENTS,
      `Other skills depend on "${slug}": ${dependents.join(', ')}; change their dependencies first.`,
      { details: { slug, dependents } },
    ),
  sharedInstallForbidden: () =>
    new DomainError(
      'forbidden',
      SkillsErrorCode.SHARED_INSTALL_FORBIDDEN,
      'Only an admin may install a shared skill; install it as a personal skill instead.',
    ),
  tooManyFiles: (limit: number) =>
    new DomainError('too_large', SkillsErrorCode.TOO_MANY_FILES, `A skill holds at most ${limit} files.`, {
      details: { limit },
    }),
  draftNotFound: (id: string) =>
    new DomainError('not_found', SkillsErrorCode.DRAFT_NOT_FOUND, `No skill draft "${truncate(id)}".`, {
      details: { id: truncate(id) },
    }),
  /** `reason`: which of the caller's draft limits (`count` or `bytes`) one more draft would pass. */
  draftLimitReached: (reason: 'count' | 'bytes', limit: number) =>
    new DomainError(
      'conflict',
      SkillsErrorCode.DRAFT_LIMIT_REACHED,
      reason === 'count'
        ? `You keep ${limit} skill drafts already: confirm or discard one first.`
        : `Your skill drafts would hold over ${limit} bytes: confirm or discard one first.`,
      { details: { reason, limit } },
    ),
  noSkillFound: (failures: { path: string; error: string }[]) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.NO_SKILL_FOUND,
      failures.length === 0 ? 'The upload holds no SKILL.md.' : 'No skill in the upload could be parsed.',
      { details: { failures: failures.slice(0, 50) } },
    ),
  nestedSkillMd: (path: string, insideFolder: string) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.NESTED_SKILL_MD,
      `"${truncate(path)}" lies inside the skill folder "${truncate(insideFolder)}": a skill may not hold another.`,
      { details: { path: truncate(path), folder: truncate(insideFolder) } },
    ),
  /** `reason`: the archive reader's (`path_unsafe`, `symlink`, `duplicate`). */
  unsafeArchive: (reason: string, message: string, details: Record<string, unknown>) =>
    new DomainError('unprocessable', SkillsErrorCode.UNSAFE_ARCHIVE, message, {
      details: { ...details, reason },
    }),
  archiveTooComplex: (reason: string, message: string, details: Record<string, unknown>) =>
    new DomainError('unprocessable', SkillsErrorCode.ARCHIVE_TOO_COMPLEX, message, {
      details: { ...details, reason },
    }),
  archiveTooLarge: (reason: string, message: string, details: Record<string, unknown>) =>
    new DomainError('too_large', SkillsErrorCode.ARCHIVE_TOO_LARGE, message, {
      details: { ...details, reason },
    }),
  invalidArchive: (message: string) =>
    new DomainError('unprocessable', SkillsErrorCode.INVALID_ARCHIVE, `Not a readable zip: ${message}`),
  unknownSkillNames: (field: string, names: string[]) =>
    new DomainError(
      'unprocessable',
      SkillsErrorCode.UNKNOWN_SKILL_NAMES,
      `No skill named ${names.map((n) => `"${truncate(n)}"`).join(', ')} in the source.`,
      { details: { field, names: names.map((name) => truncate(name)) } },
    ),
  remoteSourceRefused: (reason: string, message: string, details: Record<string, unknown>) =>
    new DomainError('unprocessable', SkillsErrorCode.REMOTE_SOURCE_REFUSED, message, {
      details: { ...details, reason },
    }),
};
