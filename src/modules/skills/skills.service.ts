import { Injectable } from '@nestjs/common';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { pageByKey, decodeKeyCursor } from '../../common/pagination/key-cursor.js';
import type { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import type { ShareConfigInput, ShareActor } from '../../common/sharing/index.js';
import { zipSkillFolder } from './archive/skill-zip-stream.js';
import { SkillDependencyRules } from './dependencies/skill-dependency-rules.js';
import type { SkillDto, SkillListDto, SkillSummaryDto } from './dto/skill.dto.js';
import { SkillOpener, type OpenedSkill } from './editing/opened-skill.js';
import { treeRevision } from './editing/skill-editor.js';
import { DEFAULT_SKILL_VERSION, parseSkillMd, type SkillManifest } from './package/skill-md.js';
import { isSkillSlug } from './package/skill-slug.js';
import { ROOT_SKILL_FILE } from './package/skill-path.js';
import { SkillsErrors } from './skills.errors.js';
import { permissionOf } from './storage/skill-access.js';
import { listSkillTree, readFileIfExists, removeSkillFolder } from './storage/skill-files.js';
import { SkillLocations } from './storage/skill-locations.js';
import { SkillShareConfigPolicy } from './storage/skill-share-config.policy.js';
import type { SkillEntity } from './storage/skill.entity.js';
import { SkillsRepository } from './storage/skills.repository.js';

const PERSONAL_RANK = '0';
/** A personal skill sorts before a shared or builtin one of the same slug. */
const listKey = (item: SkillSummaryDto) => [item.slug, item.source === 'personal' ? PERSONAL_RANK : '1'];

/** Listing, reading, sharing, enabling, exporting and deleting skills (`/api/skills`). */
@Injectable()
export class SkillsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly skills: SkillsRepository,
    private readonly locations: SkillLocations,
    private readonly opener: SkillOpener,
    private readonly sharePolicy: SkillShareConfigPolicy,
    private readonly rules: SkillDependencyRules,
  ) {}

  /**
   * In slug order, a personal skill before the shared one it shadows: keyed by `[slug, rank]`. Each
   * source gives at most `limit + 1` rows after the cursor, so no page reads every manifest.
   */
  async list(actor: ShareActor, query: PageQueryDto): Promise<SkillListDto> {
    const after = query.cursor === undefined ? null : decodeKeyCursor(query.cursor, 2);
    const personal = await this.personalSlugs(actor);
    const items: SkillSummaryDto[] = [];
    const personalPage = personal
      .filter((slug) => after === null || slug > after[0])
      .sort()
      .slice(0, query.limit + 1);
    for (const slug of personalPage) {
      items.push(summary(await this.personalManifest(actor, slug), 'personal'));
    }
    const sharedAfter = after === null ? null : { slug: after[0], inclusive: after[1] === PERSONAL_RANK };
    for (const row of await this.skills.pageReadable(actor, sharedAfter, query.limit + 1)) {
      items.push({
        slug: row.slug,
        name: row.name,
        description: row.description,
        version: row.version,
        source: row.sourceType,
        enabled: row.enabled,
        permission: permissionOf(actor, row) ?? 'read',
        shadowed_by_personal: personal.includes(row.slug),
      });
    }
    return pageByKey(items, query, listKey, (item) => item, 2);
  }

  async get(actor: ShareActor, slug: string): Promise<SkillDto> {
    return this.detail(actor, await this.opener.open(actor, slug));
  }

  async updateShareConfig(actor: ShareActor, slug: string, input: ShareConfigInput): Promise<SkillDto> {
    const skill = SkillOpener.requireEditable(await this.opener.openIndexed(actor, slug));
    const config = await this.sharePolicy.resolve(actor, skill.row.ownerId, input);
    await this.dataSource.transaction(async (manager) => {
      await this.skills.lockCatalog(manager);
      const row = await this.skills.findBySlug(slug, manager);
      if (row === null) throw SkillsErrors.notFound(slug);
      const updated = { ...row, shareConfig: config };
      const dependent = { slug, ownerId: row.ownerId, builtin: false, shareConfig: config };
      await this.rules.check(dependent, depsOf(row), manager);
      await this.rules.checkDependents(updated, manager);
      await this.skills.update(slug, { shareConfig: config, revision: row.revision + 1 }, manager);
    });
    return this.get(actor, slug);
  }

  async setEnabled(actor: ShareActor, slug: string, enabled: boolean): Promise<SkillDto> {
    const skill = SkillOpener.requireManage(await this.opener.openIndexed(actor, slug));
    await this.dataSource.transaction(async (manager) => {
      await this.skills.lockSkill(manager, slug);
      const row = await this.skills.findBySlug(slug, manager);
      if (row === null) throw SkillsErrors.notFound(slug);
      if (row.enabled !== enabled)
        await this.skills.update(slug, { enabled, revision: row.revision + 1 }, manager);
    });
    return this.detail(actor, await this.opener.openIndexed(actor, skill.slug));
  }

  /** The skill's folder as a zip stream (entries under `<slug>/`), made as the client reads it. */
  async export(actor: ShareActor, slug: string): Promise<{ slug: string; zip: Readable }> {
    const skill = SkillOpener.requireManage(await this.opener.open(actor, slug));
    const files = await listSkillTree(skill.dir);
    return { slug: skill.slug, zip: zipSkillFolder(skill.dir, skill.slug, files) };
  }

  /** Deletes a shared skill (builtin → 409; one other skills depend on → 409 naming them). */
  async removeShared(actor: ShareActor, slug: string): Promise<void> {
    SkillOpener.requireEditable(await this.opener.openIndexed(actor, slug));
    await this.dataSource.transaction(async (manager) => {
      await this.skills.lockCatalog(manager);
      await this.skills.lockSkill(manager, slug);
      const dependents = (await this.skills.findDependents(slug, manager)).map((row) => row.slug);
      if (dependents.length > 0) throw SkillsErrors.hasDependents(slug, dependents);
      await this.skills.delete(slug, manager);
      await removeSkillFolder(this.locations.sharedDir(slug));
    });
  }

  /** Deletes the caller's personal skill; a shared one with that slug is then theirs to read again. */
  async removePersonal(actor: ShareActor, slug: string): Promise<void> {
    if (!(await this.locations.hasPersonal(actor, slug))) throw SkillsErrors.notFound(slug);
    await removeSkillFolder(this.locations.personalDir(actor, slug));
  }

  private async detail(actor: ShareActor, skill: OpenedSkill): Promise<SkillDto> {
    const revision = await treeRevision(skill);
    if (skill.kind === 'indexed') return { ...rowDetail(skill.row, skill.permission), revision };
    const manifest = await this.personalManifest(actor, skill.slug);
    const info = await stat(skill.dir);
    return {
      ...summary(manifest, 'personal'),
      ...openFields(manifest),
      share_config: null,
      owner_id: null,
      revision,
      tool_dependencies: manifest.tool_dependencies,
      mcp_dependencies: manifest.mcp_dependencies,
      skill_dependencies: manifest.skill_dependencies,
      created_at: info.birthtime.toISOString(),
      updated_at: info.mtime.toISOString(),
    };
  }

  private async personalSlugs(actor: ShareActor): Promise<string[]> {
    const entries = await readdir(this.locations.personalRoot(actor), { withFileTypes: true }).catch(
      () => [],
    );
    const slugs: string[] = [];
    for (const entry of entries) {
      if (
        entry.isDirectory() &&
        isSkillSlug(entry.name) &&
        (await this.locations.hasPersonal(actor, entry.name))
      ) {
        slugs.push(entry.name);
      }
    }
    return slugs.sort();
  }

  /** A personal SKILL.md its owner broke (agents write these files too) still lists, under its slug. */
  private async personalManifest(actor: ShareActor, slug: string): Promise<SkillManifest> {
    const bytes = await readFileIfExists(join(this.locations.personalDir(actor, slug), ROOT_SKILL_FILE));
    try {
      return parseSkillMd(bytes?.toString('utf8') ?? '', { slug });
    } catch {
      return {
        slug,
        name: slug,
        description: '',
        version: DEFAULT_SKILL_VERSION,
        tool_dependencies: [],
        mcp_dependencies: [],
        skill_dependencies: [],
        open_format: { license: null, compatibility: null, metadata: null, allowed_tools: null },
      };
    }
  }
}

const depsOf = (row: SkillEntity) => ({
  tool_dependencies: row.toolDependencies,
  mcp_dependencies: row.mcpDependencies,
  skill_dependencies: row.skillDependencies,
});

const summary = (manifest: SkillManifest, source: 'personal'): SkillSummaryDto => ({
  slug: manifest.slug,
  name: manifest.name,
  description: manifest.description,
  version: manifest.version,
  source,
  enabled: true,
  permission: 'manage',
  shadowed_by_personal: false,
});

const openFields = (manifest: Pick<SkillManifest, 'open_format'>) => ({
  license: manifest.open_format.license,
  compatibility: manifest.open_format.compatibility,
  metadata: manifest.open_format.metadata,
  allowed_tools: manifest.open_format.allowed_tools,
});

function rowDetail(row: SkillEntity, permission: 'read' | 'manage'): Omit<SkillDto, 'revision'> {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    version: row.version,
    source: row.sourceType,
    enabled: row.enabled,
    permission,
    shadowed_by_personal: false,
    share_config: row.shareConfig,
    owner_id: row.ownerId,
    ...depsOf(row),
    ...openFields({ open_format: row.openFormat }),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
