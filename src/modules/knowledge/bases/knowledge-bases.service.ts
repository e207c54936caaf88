import { Injectable } from '@nestjs/common';
import { decodeCursor, toPage, type Page } from '../../../common/pagination/cursor.js';
import type { ShareActor } from '../../../common/sharing/index.js';
import { canManageKb, canReadKb } from '../access/kb-permission.js';
import { KbShareConfigPolicy } from '../access/kb-share-config.policy.js';
import type {
  CreateKnowledgeBaseDto,
  KnowledgeBaseDto,
  ListKnowledgeBasesQueryDto,
  UpdateKnowledgeBaseDto,
} from '../dto/knowledge-base.dto.js';
import { KnowledgeFileLocations } from '../files/knowledge-file-locations.js';
import { KnowledgeErrors } from '../knowledge.errors.js';
import type { KnowledgeBaseEntity } from '../storage/knowledge-base.entity.js';
import { KnowledgeBasesRepository } from '../storage/knowledge-bases.repository.js';
import { kbView } from './knowledge-base-view.js';

/** Knowledge bases over HTTP: admins create them; readers see them; managers change and delete them. */
@Injectable()
export class KnowledgeBasesService {
  constructor(
    private readonly kbs: KnowledgeBasesRepository,
    private readonly sharePolicy: KbShareConfigPolicy,
    private readonly locations: KnowledgeFileLocations,
  ) {}

  /** The base if the actor may read it; 404 otherwise (existence is not revealed). */
  async readable(actor: ShareActor, kbId: string): Promise<KnowledgeBaseEntity> {
    const row = await this.kbs.findById(kbId);
    if (row === null || !canReadKb(actor, row)) throw KnowledgeErrors.notFound(kbId);
    return row;
  }

  /** The base if the actor manages it; 404 when it cannot even read it, 403 for a reader. */
  async managed(actor: ShareActor, kbId: string): Promise<KnowledgeBaseEntity> {
    const row = await this.readable(actor, kbId);
    if (!canManageKb(actor, row)) throw KnowledgeErrors.manageForbidden(kbId);
    return row;
  }

  async list(actor: ShareActor, query: ListKnowledgeBasesQueryDto): Promise<Page<KnowledgeBaseDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.kbs.listReadablePage(actor, query.limit, after);
    return toPage(rows, query.limit, (row) => kbView(actor, row));
  }

  async get(actor: ShareActor, kbId: string): Promise<KnowledgeBaseDto> {
    return kbView(actor, await this.readable(actor, kbId));
  }

  async create(actor: ShareActor, body: CreateKnowledgeBaseDto): Promise<KnowledgeBaseDto> {
    const shareConfig = await this.sharePolicy.resolve(actor, actor.id, body.share_config ?? { version: 2 });
    const row = await this.kbs.save(
      this.kbs.create({
        name: body.name,
        description: body.description ?? '',
        ownerId: actor.id,
        shareConfig,
      }),
    );
    return kbView(actor, row);
  }

  async update(actor: ShareActor, kbId: string, body: UpdateKnowledgeBaseDto): Promise<KnowledgeBaseDto> {
    const row = await this.managed(actor, kbId);
    if (body.share_config !== undefined) {
      row.shareConfig = await this.sharePolicy.resolve(
        actor,
        row.ownerId,
        body.share_config,
        row.shareConfig.read_scope,
      );
    }
    if (body.name !== undefined) row.name = body.name;
    if (body.description !== undefined) row.description = body.description;
    return kbView(actor, await this.kbs.save(row));
  }

  /** The files, chunks and stored originals go with it. */
  async remove(actor: ShareActor, kbId: string): Promise<void> {
    await this.managed(actor, kbId);
    await this.kbs.delete(kbId);
    await this.locations.removeBase(kbId);
  }
}
