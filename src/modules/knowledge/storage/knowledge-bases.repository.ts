import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type SelectQueryBuilder } from 'typeorm';
import type { ShareActor } from '../../../common/sharing/index.js';
import type { KeysetPosition } from '../../../common/pagination/cursor.js';
import { newestFirstPage } from '../../../common/pagination/keyset.js';
import { scopeMemberSql } from '../../../common/sharing/index.js';
import { KnowledgeBaseEntity } from './knowledge-base.entity.js';

/** The `knowledge_bases` table. Reads filtered by the share rules mirror `canReadKb` (access/kb-permission.ts). */
@Injectable()
export class KnowledgeBasesRepository {
  constructor(
    @InjectRepository(KnowledgeBaseEntity) private readonly rows: Repository<KnowledgeBaseEntity>,
  ) {}

  findById(id: string): Promise<KnowledgeBaseEntity | null> {
    return this.rows.findOneBy({ id });
  }

  /** The knowledge bases the actor may read, by name; `ids` narrows them when given. */
  listReadable(actor: ShareActor, ids?: readonly string[]): Promise<KnowledgeBaseEntity[]> {
    const query = this.readableBy(actor).orderBy('kb.name', 'ASC').addOrderBy('kb.id', 'ASC');
    if (ids !== undefined) query.andWhere('kb.id = ANY(CAST(:ids AS uuid[]))', { ids: [...ids] });
    return query.getMany();
  }

  /** A page of the readable bases, newest first (fetches `limit + 1`, see `toPage`). */
  listReadablePage(
    actor: ShareActor,
    limit: number,
    after: KeysetPosition | null,
  ): Promise<KnowledgeBaseEntity[]> {
    return newestFirstPage(this.readableBy(actor), 'kb', limit, after).getMany();
  }

  private readableBy(actor: ShareActor): SelectQueryBuilder<KnowledgeBaseEntity> {
    const query = this.rows.createQueryBuilder('kb');
    if (actor.role !== 'superadmin') {
      query.andWhere(
        `(kb.owner_id = :actorId OR ${scopeMemberSql('kb.share_config', 'read_scope')} OR ${scopeMemberSql('kb.share_config', 'manage_scope')})`,
        { actorId: actor.id, actorDepartment: actor.departmentId },
      );
    }
    return query;
  }

  save(row: KnowledgeBaseEntity): Promise<KnowledgeBaseEntity> {
    return this.rows.save(row);
  }

  create(values: Partial<KnowledgeBaseEntity>): KnowledgeBaseEntity {
    return this.rows.create(values);
  }

  async delete(id: string): Promise<void> {
    await this.rows.delete({ id });
  }
}
