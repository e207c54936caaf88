import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { looksBinary } from './file-kind.js';
import { onPath } from './fs-errors.js';
import { openRegularFile } from './open-file.js';

/**
 * Performs the write that puts `newBytes` at the target once the workspace quota admits it (see
 * `WorkspaceQuota.replaceFile`); throws without writing otherwise.
 */
export type QuotaCheckedWrite = (newBytes: number, write: () => Promise<void>) => Promise<void>;

/** Creates or replaces a text file, creating its parent directories. */
export async function writeTextFile(
  target: ResolvedWorkspacePath,
  content: string,
  commit: QuotaCheckedWrite,
): Promise<{ path: string; bytes_written: number; created: boolean }> {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > WORKSPACE_LIMITS.write.maxBytes) {
    throw WorkspaceErrors.tooLarge(target.virtualPath, WORKSPACE_LIMITS.write.maxBytes);
  }
  const existing = await stat(target.realPath).catch(() => undefined);
  if (existing?.isDirectory()) throw WorkspaceErrors.isADirectory(target.virtualPath);
  if (existing !== undefined && !existing.isFile()) throw WorkspaceErrors.notAFile(target.virtualPath);
  await commit(bytes, () =>
    onPath(target.virtualPath, async () => {
      await mkdir(dirname(target.realPath), { recursive: true });
      await writeFile(target.realPath, content, 'utf8');
    }),
  );
  return { path: target.virtualPath, bytes_written: bytes, created: existing === undefined };
}

export interface Edit {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** Replaces exact text: `oldString` must occur, and exactly once unless `replaceAll`. */
export async function editTextFile(
  target: ResolvedWorkspacePath,
  edit: Edit,
  commit: QuotaCheckedWrite,
): Promise<{ path: string; replacements: number }> {
  const { handle, stats } = await openRegularFile(target);
  let original: Buffer;
  try {
    if (stats.size > WORKSPACE_LIMITS.edit.maxFileBytes) {
      throw WorkspaceErrors.tooLarge(target.virtualPath, WORKSPACE_LIMITS.edit.maxFileBytes);
    }
    original = await readFile(handle);
  } finally {
    await handle.close();
  }
  if (looksBinary(original.subarray(0, WORKSPACE_LIMITS.binarySniffBytes))) {
    throw WorkspaceErrors.binaryFile(target.virtualPath);
  }
  // split/join: non-overlapping, left to right, and no `$&` patterns as String.replace would apply.
  const parts = original.toString('utf8').split(edit.oldString);
  const occurrences = parts.length - 1;
  if (occurrences === 0) throw WorkspaceErrors.editNoMatch(target.virtualPath);
  if (occurrences > 1 && !edit.replaceAll)
    throw WorkspaceErrors.editNotUnique(target.virtualPath, occurrences);
  const updated = parts.join(edit.newString);
  const updatedBytes = Buffer.byteLength(updated, 'utf8');
  if (updatedBytes > WORKSPACE_LIMITS.write.maxBytes) {
    throw WorkspaceErrors.tooLarge(target.virtualPath, WORKSPACE_LIMITS.write.maxBytes);
  }
  await commit(updatedBytes, () =>
    onPath(target.virtualPath, () => writeFile(target.realPath, updated, 'utf8')),
  );
  return { path: target.virtualPath, replacements: occurrences };
}
