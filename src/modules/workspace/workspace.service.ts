import { Injectable } from '@nestjs/common';
import { constants } from 'node:fs';
import { copyFile, link, mkdir, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '../../common/errors/index.js';
import { mimeTypeOf } from './files/file-kind.js';
import { onPath, toWorkspaceError } from './files/fs-errors.js';
import { openRegularFile } from './files/open-file.js';
import { removeFile, removeTree } from './files/remove-entry.js';
import { projectOfWorkdir, workdirVirtualPath } from './paths/virtual-paths.js';
import {
  WorkspacePathResolver,
  type ResolvedWorkspacePath,
  type WorkspaceAccess,
} from './paths/workspace-path-resolver.js';
import type { WorkspaceUser } from './paths/workspace-user.js';
import { WorkspaceQuota } from './quota/workspace-quota.js';
import { candidateNames, sanitizeUploadFilename } from './upload-filename.js';
import { WorkspaceErrorCode, WorkspaceErrors, type PathRefusal } from './workspace.errors.js';

export interface WorkspaceDownload {
  stream: Readable;
  size: number;
  mimeType: string;
  filename: string;
}

/** An upload received in full into a temp file under DATA_DIR. */
export interface TempUpload {
  path: string;
  size: number;
}

const MAX_NAME_ATTEMPTS = 1000;

/**
 * Refusals that depend on what lies in another scope (a link's target, a skill not shared with the
 * caller) answer 404 like a missing file, so a client cannot probe what exists. Refusals decided from
 * the text of the path alone reveal nothing and answer 400.
 */
const HIDDEN_REFUSALS: ReadonlySet<PathRefusal> = new Set(['symlink_escape', 'not_shared']);

/** The HTTP side of the workspace: uploads into a project workdir, downloads of the caller's files. */
@Injectable()
export class WorkspaceService {
  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
  ) {}

  /** Creates `/home/gem/user-data/workdir/<project>/outputs/` if missing; returns the workdir's virtual path. */
  async ensureWorkdir(user: WorkspaceUser, project: string): Promise<string> {
    const workdir = workdirVirtualPath(project);
    const outputs = await this.resolveForHttp(user, `${workdir}outputs`, 'write');
    await onPath(outputs.virtualPath, () => mkdir(outputs.realPath, { recursive: true }));
    return workdir;
  }

  /**
   * Moves a completely received upload (a temp file under DATA_DIR) into the workdir under a sanitised
   * name, never overwriting (`name-1.ext`, …). The temp file is gone afterwards on success; on failure
   * the caller removes it.
   */
  async saveUpload(
    user: WorkspaceUser,
    workdir: string,
    filename: string,
    upload: TempUpload,
  ): Promise<string> {
    const project = projectOfWorkdir(workdir);
    if (project === undefined) throw forHttp(WorkspaceErrors.pathNotAllowed(workdir, 'not_a_workdir'));
    const name = sanitizeUploadFilename(filename);
    const base = await this.ensureWorkdir(user, project);
    return this.quota.addFiles(user, upload.size, async () => {
      for (const candidate of candidateNames(name, MAX_NAME_ATTEMPTS)) {
        const target = await this.resolveCandidate(user, `${base}${candidate}`);
        if (target === undefined) continue;
        if (!(await placeWithoutOverwrite(upload.path, target))) continue;
        await unlink(upload.path).catch(() => undefined);
        return target.virtualPath;
      }
      throw WorkspaceErrors.namesExhausted(`${base}${name}`);
    });
  }

  /**
   * Deletes one file of a project workdir (`path` absolute or relative to it): anything outside that
   * workdir is refused, even elsewhere in the caller's data; its bytes go back to the quota.
   */
  async deleteFile(user: WorkspaceUser, workdir: string, path: string): Promise<void> {
    const target = await this.resolveForHttp(user, path, 'write', workdir);
    if (!target.virtualPath.startsWith(workdir)) {
      throw forHttp(WorkspaceErrors.pathNotAllowed(path, 'outside_workdir'));
    }
    await removeFile(this.quota, user, target);
  }

  /** Deletes a project workdir and all it holds (nothing when it is not there); usage drops by it. */
  async deleteWorkdir(user: WorkspaceUser, project: string): Promise<void> {
    const workdir = await this.resolveForHttp(user, workdirVirtualPath(project), 'write');
    await removeTree(this.quota, user, workdir);
  }

  /** Opens one of the caller's files (or a skill shared with them); the stream closes the file. */
  async openForDownload(user: WorkspaceUser, virtualPath: string): Promise<WorkspaceDownload> {
    const target = await this.resolveForHttp(user, virtualPath, 'read');
    const { handle, stats } = await openRegularFile(target);
    return {
      stream: handle.createReadStream(),
      size: stats.size,
      mimeType: mimeTypeOf(target.virtualPath),
      filename: basename(target.virtualPath),
    };
  }

  /** undefined when the name is taken by a symlink leading elsewhere (the workdir itself was checked). */
  private async resolveCandidate(
    user: WorkspaceUser,
    path: string,
  ): Promise<ResolvedWorkspacePath | undefined> {
    try {
      return await this.resolver.resolve(user, path, { access: 'write' });
    } catch (error) {
      if (error instanceof DomainError && error.details?.reason === 'symlink_escape') return undefined;
      throw forHttp(error);
    }
  }

  private async resolveForHttp(
    user: WorkspaceUser,
    path: string,
    access: WorkspaceAccess,
    workdir?: string,
  ): Promise<ResolvedWorkspacePath> {
    try {
      return await this.resolver.resolve(user, path, { access, workdir });
    } catch (error) {
      throw forHttp(error);
    }
  }
}

function forHttp(error: unknown): unknown {
  if (!(error instanceof DomainError) || error.code !== WorkspaceErrorCode.PATH_NOT_ALLOWED) return error;
  const path = typeof error.details?.path === 'string' ? error.details.path : '';
  const reason = error.details?.reason as PathRefusal;
  if (HIDDEN_REFUSALS.has(reason)) return WorkspaceErrors.notFound(path);
  if (reason === 'read_only') return error;
  return WorkspaceErrors.pathNotAllowedAsInput(error);
}

/**
 * Puts the complete file at `target` unless the name is taken: a hard link is atomic and, like O_EXCL,
 * fails on any existing name (even a dangling symlink), so the file appears whole or not at all.
 * false when the name is taken.
 */
async function placeWithoutOverwrite(source: string, target: ResolvedWorkspacePath): Promise<boolean> {
  try {
    await link(source, target.realPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EXDEV') throw toWorkspaceError(error, target.virtualPath);
  }
  // DATA_DIR split over filesystems: an exclusive copy, removed again if it fails half-way.
  try {
    await copyFile(source, target.realPath, constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    await unlink(target.realPath).catch(() => undefined);
    throw toWorkspaceError(error, target.virtualPath);
  }
}
