import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ShareConfigInput, ShareActor } from '../../../common/sharing/index.js';
import { roleAtLeast } from '../../../common/auth/user-role.js';
import { WorkspaceQuota } from '../../workspace/index.js';
import { refuseRuntimeMountedTools } from '../dependencies/runtime-mounted-tools.js';
import { SkillDependencyRules } from '../dependencies/skill-dependency-rules.js';
import { withFrontmatterFields } from '../package/frontmatter-edit.js';
import { buildSkillPackage, packageHash, type SkillPackage } from '../package/skill-package.js';
import { MAX_SLUG_LENGTH } from '../package/skill-slug.js';
import { ROOT_SKILL_FILE } from '../package/skill-path.js';
import { SkillsErrors } from '../skills.errors.js';
import { installSkillFolder, listSkillTree, removeSkillFolder } from './skill-files.js';
import { SkillLocations, type SkillUser } from './skill-locations.js';
import { SkillShareConfigPolicy } from './skill-share-config.policy.js';
import { SkillsRepository } from './skills.repository.js';

const MAX_SUFFIX = 1000;

/**
 * Installs parsed skill packages (the install flows of drafts, remote sources and `install_skill` call
 * this): as a shared skill (files under DATA_DIR and an index row) or as one user's personal skill
 * (files in their workspace, no row).
 */
@Injectable()
export class SkillsStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly skills: SkillsRepository,
    private readonly locations: SkillLocations,
    private readonly rules: SkillDependencyRules,
    private readonly sharePolicy: SkillShareConfigPolicy,
    private readonly quota: WorkspaceQuota,
  ) {}

  /**
   * Installs `pkg` as a shared skill owned by `actor` (admins only) and returns its slug: the package's
   * slug, or `<slug>-v2`, `-v3`, … when that one is taken (the root SKILL.md then names the new slug).
   * Dependencies and the share config are validated first; on any failure nothing is left behind.
   */
  async installShared(
    actor: ShareActor,
    pkg: SkillPackage,
    shareConfig: ShareConfigInput = { version: 2 },
  ): Promise<string> {
    if (!roleAtLeast(actor.role, 'admin')) throw SkillsErrors.sharedInstallForbidden();
    const config = await this.sharePolicy.resolve(actor, actor.id, shareConfig);
    return this.dataSource.transaction(async (manager) => {
      await this.skills.lockCatalog(manager);
      const slug = await this.freeSlug(pkg.manifest.slug, manager);
      const installed = slug === pkg.manifest.slug ? pkg : renamed(pkg, slug);
      const { manifest } = installed;
      await this.rules.check(
        { slug, ownerId: actor.id, builtin: false, shareConfig: config },
        manifest,
        manager,
      );
      await installSkillFolder(this.locations.sharedRoot(), slug, installed.files);
      try {
        await this.skills.insert(
          {
            slug,
            name: manifest.name,
            description: manifest.description,
            version: manifest.version,
            sourceType: 'shared',
            ownerId: actor.id,
            shareConfig: config,
            enabled: true,
            toolDependencies: manifest.tool_dependencies,
            mcpDependencies: manifest.mcp_dependencies,
            skillDependencies: manifest.skill_dependencies,
            openFormat: manifest.open_format,
            revision: 1,
            contentHash: packageHash(installed.files),
          },
          manager,
        );
      } catch (error) {
        await removeSkillFolder(this.locations.sharedDir(slug));
        throw error;
      }
      return slug;
    });
  }

  /**
   * Installs `pkg` as `user`'s personal skill (replacing a personal skill with that slug) and returns
   * the slug. Personal skills are files only: their platform dependencies are not resolved.
   */
  async installPersonal(user: SkillUser, pkg: SkillPackage): Promise<string> {
    refuseRuntimeMountedTools(pkg.manifest);
    const slug = pkg.manifest.slug;
    const dir = this.locations.personalDir(user, slug);
    const previous = (await this.locations.hasPersonal(user, slug)) ? await listSkillTree(dir) : [];
    const growth = size(pkg.files) - previous.reduce((sum, file) => sum + file.size, 0);
    await this.quota.addFiles(user, Math.max(growth, 0), () =>
      installSkillFolder(this.locations.personalRoot(user), slug, pkg.files),
    );
    return slug;
  }

  private async freeSlug(
    base: string,
    manager: Parameters<SkillsRepository['slugsLike']>[1],
  ): Promise<string> {
    const taken = await this.skills.slugsLike(base, manager);
    if (!taken.has(base)) return base;
    for (let n = 2; n <= MAX_SUFFIX; n++) {
      const candidate = `${base}-v${n}`;
      if (candidate.length > MAX_SLUG_LENGTH) break;
      if (!taken.has(candidate)) return candidate;
    }
    throw SkillsErrors.invalidSkillMd('slug', `no free slug left for "${base}"`);
  }
}

const size = (files: readonly { content: Buffer }[]) =>
  files.reduce((sum, file) => sum + file.content.length, 0);

/** The package with its root SKILL.md naming `slug` (only that field's text changes). */
function renamed(pkg: SkillPackage, slug: string): SkillPackage {
  const files = pkg.files.map((file) =>
    file.path === ROOT_SKILL_FILE
      ? {
          path: file.path,
          content: Buffer.from(withFrontmatterFields(file.content.toString('utf8'), { slug })),
        }
      : file,
  );
  return buildSkillPackage(files);
}
