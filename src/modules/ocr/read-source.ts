import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { type ResolvedWorkspacePath, WorkspaceErrors } from '../workspace/index.js';
import { assertFileSize } from './input-caps.js';

export interface SourceFile {
  virtualPath: string;
  /** The last path segment, as the user named the file. */
  fileName: string;
  bytes: Buffer;
}

function refusal(error: unknown, virtualPath: string): unknown {
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
      return WorkspaceErrors.notFound(virtualPath);
    case 'ENOTDIR':
      return WorkspaceErrors.notADirectory(virtualPath);
    case 'ELOOP':
      return WorkspaceErrors.pathNotAllowed(virtualPath, 'symlink_escape');
    default:
      return error;
  }
}

/**
 * Reads a whole regular file of at most `limitBytes`. The size is checked on the open descriptor
 * before reading (O_NONBLOCK keeps a FIFO from blocking the open), and again on what was read, in
 * case the file grew in between.
 */
export async function readSourceFile(target: ResolvedWorkspacePath, limitBytes: number): Promise<SourceFile> {
  const { virtualPath, realPath } = target;
  let handle;
  try {
    handle = await open(realPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw refusal(error, virtualPath);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw WorkspaceErrors.isADirectory(virtualPath);
    if (!stats.isFile()) throw WorkspaceErrors.notAFile(virtualPath);
    assertFileSize(virtualPath, stats.size, limitBytes);
    const bytes = await handle.readFile();
    assertFileSize(virtualPath, bytes.length, limitBytes);
    return { virtualPath, fileName: basename(virtualPath), bytes };
  } finally {
    await handle.close();
  }
}
