import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppConfig } from '../../../config/app-config.js';
import { uploadTempDir } from '../paths/upload-temp-dir.js';
import type { WorkspaceUser } from '../paths/workspace-user.js';
import { WorkspaceQuota } from '../quota/workspace-quota.js';
import { WorkspaceErrors } from '../workspace.errors.js';

/** The part of multer's file that a storage engine reads and fills in. */
interface MulterFile {
  stream: Readable;
  path?: string;
}

type Done = (error: Error | null, info?: { path: string; size: number }) => void;

/**
 * multer's storage engine for workspace uploads: the file streams to a random name under
 * `<DATA_DIR>/tmp/uploads` (like multer's disk storage) while its bytes, with those of the user's other
 * uploads arriving in this process, are counted against the workspace quota. An upload that would pass
 * the quota is refused (413 `workspace.quota_exceeded`) as soon as it does, before it is fully
 * written, and its temp file removed. The move into the workdir checks the quota again under its lock.
 */
@Injectable()
export class QuotaCountedUploadStorage {
  private readonly dir: string;
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly quota: WorkspaceQuota,
    config: AppConfig,
  ) {
    this.dir = uploadTempDir(config.dataDir);
  }

  _handleFile(req: Request, file: MulterFile, done: Done): void {
    const user = (req as Request & { user?: WorkspaceUser }).user;
    if (user === undefined) return done(new Error('an upload reached storage without a user'));
    this.receive(user, file).then(
      (info) => done(null, info),
      (error: Error) => done(error),
    );
  }

  _removeFile(_req: Request, file: MulterFile, done: (error: Error | null) => void): void {
    const path = file.path;
    delete file.path;
    if (path === undefined) return done(null);
    unlink(path).then(
      () => done(null),
      () => done(null),
    );
  }

  private async receive(user: WorkspaceUser, file: MulterFile): Promise<{ path: string; size: number }> {
    let { usedBytes, quotaBytes } = await this.quota.current(user);
    let remeasured = false;
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, randomBytes(16).toString('hex'));
    file.path = path;
    let received = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, next) => {
        received += chunk.length;
        this.count(user.id, chunk.length);
        const fits = () => usedBytes + (this.inFlight.get(user.id) ?? 0) <= quotaBytes;
        if (fits()) return next(null, chunk);
        const decide = async () => {
          // The stored figure may be stale-high (files removed outside the quota paths): walk once.
          if (!remeasured) {
            remeasured = true;
            ({ usedBytes, quotaBytes } = await this.quota.current(user, true));
            if (fits()) return chunk;
          }
          const others = (this.inFlight.get(user.id) ?? 0) - received;
          throw WorkspaceErrors.quotaExceeded(quotaBytes, usedBytes + others, received);
        };
        decide().then(
          (accepted) => next(null, accepted),
          (error: Error) => next(error),
        );
      },
    });
    try {
      await pipeline(file.stream, counter, createWriteStream(path));
      return { path, size: received };
    } catch (error) {
      await unlink(path).catch(() => undefined);
      throw error;
    } finally {
      this.count(user.id, -received);
    }
  }

  private count(userId: string, bytes: number): void {
    const total = (this.inFlight.get(userId) ?? 0) + bytes;
    if (total > 0) this.inFlight.set(userId, total);
    else this.inFlight.delete(userId);
  }
}
