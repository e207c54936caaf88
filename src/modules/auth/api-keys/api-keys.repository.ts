import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { KeysetPosition } from '../../../common/pagination/cursor.js';
import { newestFirstPage } from '../../../common/pagination/keyset.js';
import { ApiKeyTombstoneEntity } from './api-key-tombstone.entity.js';
import { ApiKeyEntity } from './api-key.entity.js';

export type NewApiKey = Pick<
  ApiKeyEntity,
  'id' | 'userId' | 'name' | 'keyPrefix' | 'keyHash' | 'requestId' | 'payloadDigest' | 'expiresAt'
>;

/** How often `last_used_at` is written at most, so authentication is not a write per request. */
const TOUCH_INTERVAL_SECONDS = 60;

@Injectable()
export class ApiKeysRepository {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly rows: Repository<ApiKeyEntity>,
    @InjectRepository(ApiKeyTombstoneEntity) private readonly tombstones: Repository<ApiKeyTombstoneEntity>,
  ) {}

  findByRequest(userId: string, requestId: string): Promise<ApiKeyEntity | null> {
    return this.rows.findOneBy({ userId, requestId });
  }

  /** Whether this user's request id belonged to a key the retention purge has deleted. */
  wasPurged(userId: string, requestId: string): Promise<boolean> {
    return this.tombstones.existsBy({ userId, requestId });
  }

  /** Inserts unless this user already used the request id; returns the row that holds it either way. */
  async insertOrGetByRequest(key: NewApiKey): Promise<ApiKeyEntity> {
    await this.rows.createQueryBuilder().insert().values(key).orIgnore().execute();
    return this.rows.findOneByOrFail({ userId: key.userId, requestId: key.requestId });
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.rows.findOneBy({ keyHash });
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.rows.findOneBy({ id });
  }

  /** `ownerId` null lists every user's keys (superadmin). */
  listPage(ownerId: string | null, limit: number, after: KeysetPosition | null): Promise<ApiKeyEntity[]> {
    const query = this.rows.createQueryBuilder('k');
    if (ownerId !== null) query.where('k.user_id = :ownerId', { ownerId });
    return newestFirstPage(query, 'k', limit, after).getMany();
  }

  async revoke(id: string): Promise<void> {
    await this.rows
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('id = :id AND revoked_at IS NULL', { id })
      .execute();
  }

  async touch(id: string): Promise<void> {
    await this.rows
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: () => 'now()' })
      .where(
        `id = :id AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${TOUCH_INTERVAL_SECONDS}))`,
        { id },
      )
      .execute();
  }
}
