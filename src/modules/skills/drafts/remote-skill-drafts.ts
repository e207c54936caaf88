import { Injectable } from '@nestjs/common';
import type { ShareActor } from '../../../common/sharing/index.js';
import { RemoteSkillArchives } from '../remote/remote-skill-archives.js';
import { SkillDraftsService, type DraftView } from './skill-drafts.service.js';

/** A draft from a remote source: the archive fetched (see `RemoteSkillArchives`), then parsed like an upload. */
@Injectable()
export class RemoteSkillDrafts {
  constructor(
    private readonly archives: RemoteSkillArchives,
    private readonly drafts: SkillDraftsService,
  ) {}

  async create(owner: ShareActor, source: string, skillNames: string[]): Promise<DraftView> {
    await this.drafts.assertRoom(owner, 0);
    const bytes = await this.archives.fetch(source);
    return this.drafts.create(owner, bytes, { skillNames, kind: 'zip' });
  }
}
