import { Injectable } from '@nestjs/common';
import { SafeHttpClient } from '../../../common/http-safety/index.js';
import { AppConfig } from '../../../config/app-config.js';
import { skillUploadLimitBytes } from '../drafts/skill-upload.js';
import { SkillsSettings } from '../settings/skills-settings.js';
import { SkillsErrors } from '../skills.errors.js';
import { fetchRemoteArchive } from './fetch-remote-archive.js';
import { parseRemoteSource } from './parse-remote-source.js';
import { RemoteSourceError } from './remote-source.errors.js';

/**
 * The archive behind a remote source: the host checked against `remote_source_allowed_hosts` (read at
 * each call), fetched through the guarded fetch and capped like an upload. Refusals of the source are
 * `skills.remote_source_refused`; those of the fetch itself stay `http_safety.*`.
 */
@Injectable()
export class RemoteSkillArchives {
  constructor(
    private readonly settings: SkillsSettings,
    private readonly http: SafeHttpClient,
    private readonly config: AppConfig,
  ) {}

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
