import { WorkspaceErrors } from '../workspace.errors.js';

/** Turns the filesystem errors an agent can cause into workspace errors; anything else stays as it is. */
export function toWorkspaceError(error: unknown, virtualPath: string): unknown {
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
      return WorkspaceErrors.notFound(virtualPath);
    case 'ENOTDIR':
      return WorkspaceErrors.notADirectory(virtualPath);
    case 'EISDIR':
      return WorkspaceErrors.isADirectory(virtualPath);
    case 'ELOOP':
      return WorkspaceErrors.pathNotAllowed(virtualPath, 'symlink_escape');
    case 'ENAMETOOLONG':
      return WorkspaceErrors.pathNotAllowed(virtualPath, 'invalid_syntax');
    default:
      return error;
  }
}

/** Runs a filesystem step, rethrowing its errors as workspace errors about `virtualPath`. */
export async function onPath<T>(virtualPath: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw toWorkspaceError(error, virtualPath);
  }
}
