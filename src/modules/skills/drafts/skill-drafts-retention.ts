import { Injectable } from '@nestjs/common';
import { SkillDraftFiles } from './skill-draft-files.js';
import { SkillDraftsRepository } from './skill-drafts.repository.js';

/** How long a draft waits for its creator to confirm it. */
export const DRAFT_TTL_MS = 60 * 60 * 1000;

/**
 * The cleaning job of skill drafts (the worker's maintenance queue runs it): expired drafts lose their
 * row and their files, and folders no row accounts for are removed once older than a draft's lifetime.
 */
@Injectable()
export class SkillDraftsRetention {
  constructor(
    private readonly rows: SkillDraftsRepository,
    private readonly files: SkillDraftFiles,
  ) {}

  async purgeExpired(now = new Date()): Promise<{ expired: number; unaccounted: number }> {
    const expired = await this.rows.deleteExpired(now);
    for (const id of expired) await this.files.remove(id);
    const unaccounted = await this.files.removeUnaccounted(
      await this.rows.allIds(),
      new Date(now.getTime() - DRAFT_TTL_MS),
    );
    return { expired: expired.length, unaccounted };
  }
}
