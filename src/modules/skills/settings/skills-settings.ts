import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SkillsSettingsEntity } from './skills-settings.entity.js';

export const DEFAULT_REMOTE_SOURCE_ALLOWED_HOSTS: readonly string[] = ['github.com', 'modelscope.cn'];
const ROW_ID = 'global';

/**
 * The skills settings as other parts of the module read them: `allowedHosts()` is the list a remote
 * skill source's host must be in (exact, lowercase; empty = remote installs off). Read at each call, so
 * a saved change applies to the next install in every process.
 */
@Injectable()
export class SkillsSettings {
  constructor(
    @InjectRepository(SkillsSettingsEntity) private readonly rows: Repository<SkillsSettingsEntity>,
  ) {}

  async allowedHosts(): Promise<string[]> {
    const row = await this.rows.findOneBy({ id: ROW_ID });
    return row === null ? [...DEFAULT_REMOTE_SOURCE_ALLOWED_HOSTS] : [...row.remoteSourceAllowedHosts];
  }

  async saveAllowedHosts(hosts: string[], updatedBy: string): Promise<void> {
    await this.rows.upsert(
      { id: ROW_ID, remoteSourceAllowedHosts: hosts, updatedAt: new Date(), updatedBy },
      { conflictPaths: ['id'] },
    );
  }
}
