import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { KnowledgeSettingsEntity } from './knowledge-settings.entity.js';

const ROW_ID = 'global';

/**
 * Whether knowledge is switched on (default: yes). Read from the database at each call (one primary-key
 * lookup), so a saved change applies at once in every process.
 */
@Injectable()
export class KnowledgeSettings {
  constructor(
    @InjectRepository(KnowledgeSettingsEntity) private readonly rows: Repository<KnowledgeSettingsEntity>,
  ) {}

  async isEnabled(): Promise<boolean> {
    const row = await this.rows.findOneBy({ id: ROW_ID });
    return row?.enabled ?? true;
  }

  async save(enabled: boolean, updatedBy: string): Promise<void> {
    await this.rows.upsert(
      { id: ROW_ID, enabled, updatedAt: new Date(), updatedBy },
      { conflictPaths: ['id'] },
    );
  }
}
