import { Injectable } from '@nestjs/common';
import type { ShareActor } from '../../../common/sharing/index.js';
import { SkillsErrors } from '../skills.errors.js';
import { permissionOf, type SkillPermission } from '../storage/skill-access.js';
import type { SkillEntity } from '../storage/skill.entity.js';
import { SkillLocations } from '../storage/skill-locations.js';
import { SkillsRepository } from '../storage/skills.repository.js';
import { isSkillSlug } from '../package/skill-slug.js';

/** A skill as one caller reaches it by slug: their personal one, or an indexed (shared/builtin) one. */
export type OpenedSkill =
  | { kind: 'personal'; slug: string; dir: string; permission: 'manage' }
  | { kind: 'indexed'; slug: string; dir: string; row: SkillEntity; permission: SkillPermission };

/**
 * Finds the skill a route names. Personal first (it overrides a shared one with the same slug for its
 * owner); a skill the caller may not read is "not found" (its existence is not revealed).
 */
@Injectable()
export class SkillOpener {
  constructor(
    private readonly skills: SkillsRepository,
    private readonly locations: SkillLocations,
  ) {}

  async open(actor: ShareActor, slug: string): Promise<OpenedSkill> {
    if (isSkillSlug(slug) && (await this.locations.hasPersonal(actor, slug))) {
      return { kind: 'personal', slug, dir: this.locations.personalDir(actor, slug), permission: 'manage' };
    }
    return this.openIndexed(actor, slug);
  }

  /** The shared or builtin skill with this slug, even when the caller's personal one shadows it. */
  async openIndexed(actor: ShareActor, slug: string): Promise<OpenedSkill & { kind: 'indexed' }> {
    const row = isSkillSlug(slug) ? await this.skills.findBySlug(slug) : null;
    const permission = row === null ? null : permissionOf(actor, row);
    if (row === null || permission === null) throw SkillsErrors.notFound(slug);
    return { kind: 'indexed', slug, dir: this.locations.sharedDir(slug), row, permission };
  }

  /** Managing needs the manage permission (403 for a reader). */
  static requireManage<T extends OpenedSkill>(skill: T): T {
    if (skill.permission !== 'manage') throw SkillsErrors.manageForbidden(skill.slug);
    return skill;
  }

  /** Changing files, dependencies or the share config also needs a non-builtin skill (409). */
  static requireEditable<T extends OpenedSkill>(skill: T): T {
    SkillOpener.requireManage(skill);
    if (skill.kind === 'indexed' && skill.row.sourceType === 'builtin')
      throw SkillsErrors.builtinImmutable(skill.slug);
    return skill;
  }
}
