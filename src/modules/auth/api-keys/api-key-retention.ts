import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity.js';

/** Keys revoked or expired long ago are kept for audit for a while, then deleted. */
export const API_KEY_RETENTION_DAYS = 90;

@Injectable()
export class ApiKeyRetention {
  constructor(@InjectRepository(ApiKeyEntity) private readonly rows: Repository<ApiKeyEntity>) {}

  /** Deletes keys revoked or expired more than `days` ago; returns how many. */
  async purgeStale(days = API_KEY_RETENTION_DAYS): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where(`coalesce(revoked_at, expires_at) < now() - make_interval(days => :days)`, { days })
      .execute();
    return result.affected ?? 0;
  }
}
