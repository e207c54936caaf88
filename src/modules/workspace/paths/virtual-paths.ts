import { WorkspaceErrors } from '../workspace.errors.js';

/** The virtual layout agents see; every path maps into the caller's own directories by construction. */
export const USER_DATA_ROOT = '/home/gem/user-data';
export const WORKDIRS_ROOT = `${USER_DATA_ROOT}/workdir`;
export const PERSONAL_SKILLS_ROOT = `${USER_DATA_ROOT}/agents/skills`;
export const SHARED_SKILLS_ROOT = '/home/gem/skills';

/** Internal files inside a project workdir: never artifacts (see `isInternalWorkspacePath`). */
export const LARGE_TOOL_RESULTS_DIR = 'large_tool_results';
export const SUMMARIES_DIR = '.summaries';
const INTERNAL_WORKDIR_DIRS: ReadonlySet<string> = new Set([LARGE_TOOL_RESULTS_DIR, SUMMARIES_DIR]);

export const PROJECT_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const MAX_PATH_CHARS = 4096;

export type WorkspaceArea = 'user_data' | 'shared_skills';

export interface VirtualPath {
  /** Normalised absolute virtual path without a trailing slash. */
  path: string;
  area: WorkspaceArea;
  /** Segments below the area root (`/home/gem/user-data` or `/home/gem/skills`). */
  segments: string[];
}

/**
 * Parses what an agent or client wrote into a normalised virtual path, without touching the disk.
 * Relative paths are resolved against `workdir`. Only `/` separates segments: a backslash, `%2e%2e`
 * or `~` is an ordinary character of a name. `.` and `..` are resolved lexically; a `..` above `/`
 * is refused, and so is anything that does not land under one of the two areas.
 */
export function parseVirtualPath(input: string, workdir?: string): VirtualPath {
  if (
    typeof input !== 'string' ||
    input.length === 0 ||
    input.length > MAX_PATH_CHARS ||
    input.includes('\0')
  ) {
    throw WorkspaceErrors.pathNotAllowed(String(input), 'invalid_syntax');
  }
  let absolute = input;
  if (!input.startsWith('/')) {
    if (workdir === undefined || !workdir.startsWith('/')) {
      throw WorkspaceErrors.pathNotAllowed(input, 'relative_without_workdir');
    }
    absolute = `${workdir}/${input}`;
  }
  const stack: string[] = [];
  for (const segment of absolute.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (stack.length === 0) throw WorkspaceErrors.pathNotAllowed(input, 'escapes_root');
      stack.pop();
      continue;
    }
    stack.push(segment);
  }
  if (stack[0] !== 'home' || stack[1] !== 'gem') {
    throw WorkspaceErrors.pathNotAllowed(input, 'outside_workspace');
  }
  const area = stack[2] === 'user-data' ? 'user_data' : stack[2] === 'skills' ? 'shared_skills' : undefined;
  if (area === undefined) throw WorkspaceErrors.pathNotAllowed(input, 'outside_workspace');
  return { path: `/${stack.join('/')}`, area, segments: stack.slice(3) };
}

/** The virtual path of a project workdir, with its trailing slash (the form `ToolExecutionContext.workdir` uses). */
export function workdirVirtualPath(project: string): string {
  if (!PROJECT_SLUG.test(project)) throw WorkspaceErrors.invalidProject(project);
  return `${WORKDIRS_ROOT}/${project}/`;
}

/** The project slug when `path` is exactly a project workdir, otherwise undefined. */
export function projectOfWorkdir(path: string): string | undefined {
  let parsed: VirtualPath;
  try {
    parsed = parseVirtualPath(path);
  } catch {
    return undefined;
  }
  const [workdir, project] = parsed.segments;
  const isWorkdir = parsed.area === 'user_data' && parsed.segments.length === 2 && workdir === 'workdir';
  return isWorkdir && project !== undefined && PROJECT_SLUG.test(project) ? project : undefined;
}

/**
 * Whether a path is one of the platform's internal files (large tool results, conversation summaries)
 * directly under a project workdir, which `present_artifacts` must refuse. A path that does not parse
 * is not internal: the resolver refuses it on its own.
 */
export function isInternalWorkspacePath(virtualPath: string, workdir?: string): boolean {
  let parsed: VirtualPath;
  try {
    parsed = parseVirtualPath(virtualPath, workdir);
  } catch {
    return false;
  }
  const [top, , internal] = parsed.segments;
  return (
    parsed.area === 'user_data' &&
    top === 'workdir' &&
    internal !== undefined &&
    INTERNAL_WORKDIR_DIRS.has(internal)
  );
}
