import { Injectable } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { onPath } from './files/fs-errors.js';
import { SUMMARIES_DIR } from './paths/virtual-paths.js';
import type { WorkspaceUser } from './paths/workspace-user.js';
import { WorkspacePathResolver } from './paths/workspace-path-resolver.js';
import { WorkspaceQuota } from './quota/workspace-quota.js';

/**
 * The summaries a thread's history was compressed into, kept whole under `<workdir>/.summaries/` (an
 * internal folder: never presented as an artifact), counted against the user's quota.
 */
@Injectable()
export class ConversationSummaries {
  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
  ) {}

  /** Writes `<workdir>/.summaries/<name>.md`; returns its virtual path. */
  async save(user: WorkspaceUser, workdir: string, name: string, text: string): Promise<string> {
    const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);
    const target = await this.resolver.resolve(user, `${SUMMARIES_DIR}/${safe}.md`, {
      access: 'write',
      workdir,
    });
    await this.quota.replaceFile(user, target.realPath, Buffer.byteLength(text, 'utf8'), () =>
      onPath(target.virtualPath, async () => {
        await mkdir(dirname(target.realPath), { recursive: true });
        await writeFile(target.realPath, text, 'utf8');
      }),
    );
    return target.virtualPath;
  }
}
