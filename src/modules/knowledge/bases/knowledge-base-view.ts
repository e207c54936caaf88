import type { ShareActor } from '../../../common/sharing/index.js';
import { kbPermissionOf } from '../access/kb-permission.js';
import type { KnowledgeBaseDto } from '../dto/knowledge-base.dto.js';
import type { KnowledgeFileDto } from '../dto/knowledge-file.dto.js';
import type { KnowledgeBaseEntity } from '../storage/knowledge-base.entity.js';
import type { KnowledgeFileEntity } from '../storage/knowledge-file.entity.js';

/** The API shape of a knowledge base the actor can read. */
export function kbView(actor: ShareActor, row: KnowledgeBaseEntity): KnowledgeBaseDto {
  return {
    kb_id: row.id,
    name: row.name,
    description: row.description,
    owner_id: row.ownerId,
    share_config: row.shareConfig,
    permission: kbPermissionOf(actor, row) ?? 'read',
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function fileView(row: KnowledgeFileEntity): KnowledgeFileDto {
  return {
    file_id: row.id,
    kb_id: row.kbId,
    filename: row.filename,
    file_type: row.fileType,
    size_bytes: row.sizeBytes,
    status: row.status,
    error: row.error,
    version: row.version,
    line_count: row.lineCount,
    chunk_count: row.chunkCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
