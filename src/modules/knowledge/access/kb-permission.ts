import { canManage, canRead, type ShareActor } from '../../../common/sharing/index.js';
import type { KnowledgeBaseEntity } from '../storage/knowledge-base.entity.js';

export type KbPermission = 'read' | 'manage';

const subjectOf = (row: KnowledgeBaseEntity) => ({
  ownerId: row.ownerId,
  builtin: false,
  shareConfig: row.shareConfig,
});

/** The share rules (the SQL twin is `KnowledgeBasesRepository.listReadable`). */
export function canReadKb(actor: ShareActor, row: KnowledgeBaseEntity): boolean {
  return canRead(actor, subjectOf(row));
}

/** Superadmins and the creator manage; so does the manage scope. Managers upload and delete files. */
export function canManageKb(actor: ShareActor, row: KnowledgeBaseEntity): boolean {
  return canManage(actor, subjectOf(row));
}

export function kbPermissionOf(actor: ShareActor, row: KnowledgeBaseEntity): KbPermission | null {
  if (canManageKb(actor, row)) return 'manage';
  return canReadKb(actor, row) ? 'read' : null;
}
