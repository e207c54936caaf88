import { join, resolve } from 'node:path';

/**
 * Where uploads stream before they are complete: under DATA_DIR (so moving one into a workdir is a
 * link on the same filesystem, never a copy) and outside every user's data (so a half-received file
 * is never visible in a workspace nor counted in its quota).
 */
export function uploadTempDir(dataDir: string): string {
  return join(resolve(dataDir), 'tmp', 'uploads');
}
