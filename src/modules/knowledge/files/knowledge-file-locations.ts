import { Injectable } from '@nestjs/common';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AppConfig } from '../../../config/app-config.js';

/**
 * Where uploaded originals live: `<DATA_DIR>/knowledge/<kb_id>/<file_id>`. Named by ids only, so a
 * filename never becomes a path; the temp upload is under DATA_DIR too, so storing it is a rename.
 */
@Injectable()
export class KnowledgeFileLocations {
  private readonly root: string;

  constructor(config: AppConfig) {
    this.root = join(resolve(config.dataDir), 'knowledge');
  }

  original(kbId: string, fileId: string): string {
    return join(this.root, kbId, fileId);
  }

  async store(tempPath: string, kbId: string, fileId: string): Promise<void> {
    await mkdir(join(this.root, kbId), { recursive: true });
    await rename(tempPath, this.original(kbId, fileId));
  }

  async removeFile(kbId: string, fileId: string): Promise<void> {
    await rm(this.original(kbId, fileId), { force: true });
  }

  async removeBase(kbId: string): Promise<void> {
    await rm(join(this.root, kbId), { recursive: true, force: true });
  }
}
