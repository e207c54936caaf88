import { Injectable } from '@nestjs/common';
import type { ShareActor } from '../../../common/sharing/share-config.js';
import { SafeHttpClient } from '../../../common/http-safety/index.js';
import { AppConfig } from '../../../config/app-config.js';
import { fetchRemoteArchive } from '../remote/fetch-remote-archive.js';
import { parseRemoteSource } from '../remote/parse-remote-source.js';
import { RemoteSourceError } from '../remote/remote-source.errors.js';
import { SkillsSettings } from '../settings/skills-settings.js';
import { SkillsErrors } from '../skills.errors.js';
import { SkillDraftsService, type DraftView } from './skill-drafts.service.js';
import { skillUploadLimitBytes } from './skill-upload.js';

/**
 * A draft from a remote source: the host checked against `remote_source_allowed_hosts` (read at each
 * call), the archive fetched through the guarded fetch (capped like an upload), then parsed like one.
 */
@Injectable()
export class RemoteSkillDrafts {
  constructor(
    private readonly settings: SkillsSettings,
    private readonly http: SafeHttpClient,
    private readonly config: AppConfig,
    private readonly drafts: SkillDraftsService,
  ) {}

  async create(owner: ShareActor, source: string, skillNames: string[]): Promise<DraftView> {
    const bytes = await this.fetch(source);
    return this.drafts.create(owner, bytes, { skillNames, kind: 'zip' });
  }

  /** The archive's bytes; refusals of the source as `skills.remote_source_refused`. */
  async fetch(source: string, signal?: AbortSignal): Promise<Buffer> {
    try {
      const url = parseRemoteSource(source, await this.settings.allowedHosts());
      return await fetchRemoteArchive(url, {
        safeFetch: (target, init) => this.http.fetch(target, init),
        maxBytes: skillUploadLimitBytes(this.config),
        signal,
      });
    } catch (error) {
      if (error instanceof RemoteSourceError)
        throw SkillsErrors.remoteSourceRefused(error.reason, error.message, error.details);
      throw error;
    }
  }
}
