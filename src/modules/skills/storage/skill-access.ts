import { canManage, canRead, type ShareActor } from '../../../common/sharing/index.js';
import type { SkillEntity } from './skill.entity.js';

export type SkillPermission = 'read' | 'manage';

const subjectOf = (row: SkillEntity) => ({
  ownerId: row.ownerId,
  builtin: row.sourceType === 'builtin',
  shareConfig: row.shareConfig,
});

/** Builtins are readable by everyone; the rest by the share rules (the SQL twin is `listReadable`). */
export function canReadSkill(actor: ShareActor, row: SkillEntity): boolean {
  return row.sourceType === 'builtin' || canRead(actor, subjectOf(row));
}

/** Superadmins and the creator manage; so does the manage scope; admins manage builtins. */
export function canManageSkill(actor: ShareActor, row: SkillEntity): boolean {
  return canManage(actor, subjectOf(row));
}

export function permissionOf(actor: ShareActor, row: SkillEntity): SkillPermission | null {
  if (canManageSkill(actor, row)) return 'manage';
  return canReadSkill(actor, row) ? 'read' : null;
}
