import { Injectable } from '@nestjs/common';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkspacePathResolver } from '../../workspace/index.js';
import { isSkillSlug } from '../package/skill-slug.js';

/** Who owns a personal skill folder. */
export interface SkillUser {
  id: string;
}

/**
 * Where skills live on disk. Shared and builtin: `<DATA_DIR>/skills/<slug>/` (agents: `/home/gem/skills/<slug>/`,
 * read-only). Personal: `<user data>/agents/skills/<slug>/` (agents: `/home/gem/user-data/agents/skills/<slug>/`).
 */
@Injectable()
export class SkillLocations {
  constructor(private readonly resolver: WorkspacePathResolver) {}

  sharedRoot(): string {
    return this.resolver.sharedSkillsRoot();
  }

  sharedDir(slug: string): string {
    return join(this.sharedRoot(), this.checked(slug));
  }

  personalRoot(user: SkillUser): string {
    return join(this.resolver.userDataRoot(user), 'agents', 'skills');
  }

  personalDir(user: SkillUser, slug: string): string {
    return join(this.personalRoot(user), this.checked(slug));
  }

  /** A personal skill exists when its folder (a real folder, not a link) holds a root SKILL.md file. */
  async hasPersonal(user: SkillUser, slug: string): Promise<boolean> {
    if (!isSkillSlug(slug)) return false;
    const dir = this.personalDir(user, slug);
    try {
      const [folder, root] = await Promise.all([lstat(dir), lstat(join(dir, 'SKILL.md'))]);
      return folder.isDirectory() && root.isFile();
    } catch {
      return false;
    }
  }

  private checked(slug: string): string {
    // Slugs come from validated input or rows; the check keeps a bad one from becoming a path.
    if (!isSkillSlug(slug)) throw new Error('refusing a skill folder for a malformed slug');
    return slug;
  }
}
