import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config.js';
import { packageHash, type SkillPackage } from '../package/skill-package.js';
import { installSkillFolder, readSkillFiles, removeSkillFolder } from '../storage/skill-files.js';
import { SkillLocations } from '../storage/skill-locations.js';
import { SkillsRepository } from '../storage/skills.repository.js';
import { defaultBuiltinSkillsDir, loadBuiltinSkillPackages } from './builtin-skill-packages.js';

/**
 * Syncs the repository's builtin skills into the shared skills (files and index) at every API and worker
 * start, under the catalog's advisory lock so processes starting together do not race. Files, name,
 * description, version and dependencies come from the repository; `enabled` is kept from the database.
 * Builtins that left the repository are removed. An invalid builtin fails the start, naming it.
 */
@Injectable()
export class BuiltinSkillsSync implements OnApplicationBootstrap {
  private readonly logger = new Logger(BuiltinSkillsSync.name);
  private readonly dir: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly skills: SkillsRepository,
    private readonly locations: SkillLocations,
    config: AppConfig,
  ) {
    this.dir = config.skills.builtinDir ?? defaultBuiltinSkillsDir();
  }

  async onApplicationBootstrap(): Promise<void> {
    const packages = await loadBuiltinSkillPackages(this.dir);
    await this.dataSource.transaction(async (manager) => {
      await this.skills.lockCatalog(manager);
      const stale = new Set((await this.skills.listBuiltin(manager)).map((row) => row.slug));
      for (const pkg of packages) {
        stale.delete(pkg.manifest.slug);
        await this.syncOne(pkg, manager);
      }
      for (const slug of stale) {
        await this.skills.delete(slug, manager);
        await removeSkillFolder(this.locations.sharedDir(slug));
      }
    });
    this.logger.log(
      `builtin skills synced: ${packages.map((pkg) => pkg.manifest.slug).join(', ') || 'none'}`,
    );
  }

  private async syncOne(
    pkg: SkillPackage,
    manager: Parameters<SkillsRepository['insert']>[1],
  ): Promise<void> {
    const { manifest } = pkg;
    const row = await this.skills.findBySlug(manifest.slug, manager);
    if (row !== null && row.sourceType !== 'builtin') {
      this.logger.warn(`builtin skill "${manifest.slug}" skipped: a shared skill has that slug`);
      return;
    }
    const hash = packageHash(pkg.files);
    const dir = this.locations.sharedDir(manifest.slug);
    const onDisk = await readSkillFiles(dir).catch(() => null);
    if (onDisk === null || packageHash(onDisk) !== hash) {
      await installSkillFolder(this.locations.sharedRoot(), manifest.slug, pkg.files);
    }
    const fields = {
      name: manifest.name,
      description: manifest.description,
      version: manifest.version,
      toolDependencies: manifest.tool_dependencies,
      mcpDependencies: manifest.mcp_dependencies,
      skillDependencies: manifest.skill_dependencies,
      openFormat: manifest.open_format,
      contentHash: hash,
    };
    if (row === null) {
      await this.skills.insert(
        {
          ...fields,
          slug: manifest.slug,
          sourceType: 'builtin',
          ownerId: null,
          shareConfig: { version: 2, read_scope: { level: 'global' }, manage_scope: null },
          enabled: true,
          revision: 1,
        },
        manager,
      );
    } else if (row.contentHash !== hash) {
      await this.skills.update(manifest.slug, { ...fields, revision: row.revision + 1 }, manager);
    }
  }
}
