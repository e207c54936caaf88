import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity.js';

/**
 * Keys revoked or expired long ago are kept for audit for a while, then deleted, each leaving a
 * tombstone (user, request id) in the same statement so a replayed creation cannot derive it again.
 */
export const API_KEY_RETENTION_DAYS = 90;

@Injectable()
export class ApiKeyRetention {
  constructor(@InjectRepository(ApiKeyEntity) private readonly rows: Repository<ApiKeyEntity>) {}

  /** Deletes keys revoked or expired more than `days` ago, leaving their tombstones; returns how many. */
  async purgeStale(days = API_KEY_RETENTION_DAYS): Promise<number> {
    const [{ deleted }] = await this.rows.query<[{ deleted: number }]>(
      `WITH purged AS (
         DELETE FROM api_keys WHERE coalesce(revoked_at, expires_at) < now() - make_interval(days => $1)
         RETURNING id, user_id, request_id
       ), tombstones AS (
         INSERT INTO api_key_tombstones (user_id, request_id, key_id)
         SELECT user_id, request_id, id FROM purged
         ON CONFLICT DO NOTHING
       )
       SELECT count(*)::int AS deleted FROM purged`,
      [days],
    );
    return deleted;
  }
}
