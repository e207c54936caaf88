import { Injectable } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import { DataSource, type EntityManager } from 'typeorm';
import type { ShareActor } from '../../../common/sharing/index.js';
import { WorkspaceQuota } from '../../workspace/index.js';
import { refuseRuntimeMountedTools } from '../dependencies/runtime-mounted-tools.js';
import { SkillDependencyRules } from '../dependencies/skill-dependency-rules.js';
import type { SkillFileDto, SkillTreeDto } from '../dto/skill.dto.js';
import { withDependencies } from '../package/frontmatter-edit.js';
import { parseSkillMd, type SkillDependencies, type SkillManifest } from '../package/skill-md.js';
import { contentRevision } from '../package/skill-package.js';
import { checkSkillFilePath, decodeUtf8Text, ROOT_SKILL_FILE } from '../package/skill-path.js';
import { SKILL_LIMITS } from '../skills-limits.js';
import { SkillsErrors } from '../skills.errors.js';
import {
  fileInSkill,
  pruneEmptyFolders,
  readFileIfExists,
  statSkillTree,
  writeFileAtomic,
  type SkillTreeStat,
} from '../storage/skill-files.js';
import { hashSkillTree, treeStamp } from '../storage/skill-tree-hash.js';
import { SkillsRepository } from '../storage/skills.repository.js';
import { SkillOpener, type OpenedSkill } from './opened-skill.js';

/** A change to one file, decided under the skill's lock: what to write (null deletes). */
interface FileChange {
  path: string;
  /** Checks the current bytes (null: no such file) and returns the new ones. */
  next(current: Buffer | null): Buffer | null;
}

/**
 * The file routes of a skill: tree, read, save with revision, create, delete, dependencies. Every change
 * to a shared skill runs under its advisory lock (root-file changes under the catalog lock too, since they
 * change dependencies) and bumps its index revision; a personal skill's change runs under its owner's
 * workspace quota lock. Writes are atomic (temp file + rename); a refused change writes nothing.
 */
@Injectable()
export class SkillEditor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly opener: SkillOpener,
    private readonly skills: SkillsRepository,
    private readonly rules: SkillDependencyRules,
    private readonly quota: WorkspaceQuota,
  ) {}

  async tree(actor: ShareActor, slug: string): Promise<SkillTreeDto> {
    const skill = await this.opener.open(actor, slug);
    const tree = await statSkillTree(skill.dir);
    const files = tree.map(({ path, size }) => ({ path, size }));
    return { slug: skill.slug, revision: revisionOf(skill, tree), files };
  }

  async read(actor: ShareActor, slug: string, path: string): Promise<SkillFileDto> {
    const skill = await this.opener.open(actor, slug);
    const bytes = await readFileIfExists(await fileInSkill(skill.dir, path));
    if (bytes === null) throw SkillsErrors.fileNotFound(path);
    if (bytes.length > SKILL_LIMITS.maxTextFileBytes)
      throw SkillsErrors.fileTooLarge(path, SKILL_LIMITS.maxTextFileBytes);
    return { path, content: decodeUtf8Text(path, bytes), revision: contentRevision(bytes) };
  }

  async save(
    actor: ShareActor,
    slug: string,
    path: string,
    content: string,
    revision: string,
  ): Promise<SkillFileDto> {
    const bytes = textBytes(path, content);
    await this.change(actor, slug, {
      path,
      next: (current) => {
        if (current === null) throw SkillsErrors.fileNotFound(path);
        if (contentRevision(current) !== revision) throw SkillsErrors.revisionConflict(path);
        return bytes;
      },
    });
    return { path, content, revision: contentRevision(bytes) };
  }

  async create(actor: ShareActor, slug: string, path: string, content: string): Promise<SkillFileDto> {
    const bytes = textBytes(path, content);
    await this.change(actor, slug, {
      path,
      next: (current) => {
        if (current !== null) throw SkillsErrors.fileExists(path);
        return bytes;
      },
    });
    return { path, content, revision: contentRevision(bytes) };
  }

  async remove(actor: ShareActor, slug: string, path: string): Promise<void> {
    if (checkSkillFilePath(path) === ROOT_SKILL_FILE) {
      SkillOpener.requireEditable(await this.opener.open(actor, slug));
      throw SkillsErrors.rootFileRequired();
    }
    await this.change(actor, slug, {
      path,
      next: (current) => {
        if (current === null) throw SkillsErrors.fileNotFound(path);
        return null;
      },
    });
  }

  /** Writes the three lists into the root SKILL.md (nothing else in it changes) and the index. */
  async setDependencies(actor: ShareActor, slug: string, deps: SkillDependencies): Promise<SkillManifest> {
    let manifest: SkillManifest | undefined;
    await this.change(actor, slug, {
      path: ROOT_SKILL_FILE,
      next: (current) => {
        if (current === null) throw SkillsErrors.fileNotFound(ROOT_SKILL_FILE);
        const text = withDependencies(decodeUtf8Text(ROOT_SKILL_FILE, current), deps);
        manifest = parseSkillMd(text, { slug });
        return Buffer.from(text, 'utf8');
      },
    });
    return manifest!;
  }

  private async change(actor: ShareActor, slug: string, change: FileChange): Promise<void> {
    const skill = SkillOpener.requireEditable(await this.opener.open(actor, slug));
    const target = await fileInSkill(skill.dir, change.path);
    const isRoot = change.path === ROOT_SKILL_FILE;
    if (skill.kind === 'personal') {
      // Under the owner's quota lock: the revision check and the write cannot interleave with another write.
      const apply = async () => {
        const next = change.next(await readFileIfExists(target));
        if (next !== null && isRoot)
          refuseRuntimeMountedTools(parseSkillMd(decodeUtf8Text(ROOT_SKILL_FILE, next), { slug }));
        if (next !== null) checkPackageLimits(await statSkillTree(skill.dir), change.path, next.length);
        await this.write(skill, target, next);
      };
      await this.quota.replaceFile(actor, target, await this.newSize(change, target), apply);
      return;
    }
    await this.dataSource.transaction(async (manager) => {
      if (isRoot) await this.skills.lockCatalog(manager);
      await this.skills.lockSkill(manager, skill.slug);
      const row = await this.skills.findBySlug(skill.slug, manager);
      if (row === null) throw SkillsErrors.notFound(skill.slug);
      const next = change.next(await readFileIfExists(target));
      let manifest: SkillManifest | null = null;
      if (next !== null && isRoot) {
        manifest = parseSkillMd(decodeUtf8Text(ROOT_SKILL_FILE, next), { slug: skill.slug });
        await this.rules.check(
          { slug: row.slug, ownerId: row.ownerId, builtin: false, shareConfig: row.shareConfig },
          manifest,
          manager,
        );
      }
      const tree = await statSkillTree(skill.dir);
      if (next !== null) checkPackageLimits(tree, change.path, next.length);
      const contentHash = await hashSkillTree(skill.dir, tree, { path: change.path, content: next });
      // The row first, the file last: a refused or failed update leaves the file as it was, and a
      // failed write rolls the row back with the transaction.
      await this.reindex(manager, skill, row.revision, contentHash, manifest);
      await this.write(skill, target, next);
    });
  }

  /** The bytes the file will hold, for the quota (a deletion or a refused change grows nothing). */
  private async newSize(change: FileChange, target: string): Promise<number> {
    try {
      return change.next(await readFileIfExists(target))?.length ?? 0;
    } catch {
      return 0;
    }
  }

  private async write(skill: OpenedSkill, target: string, next: Buffer | null): Promise<void> {
    if (next === null) {
      await rm(target, { force: true });
      await pruneEmptyFolders(skill.dir, target);
      return;
    }
    await writeFileAtomic(target, next);
  }

  private async reindex(
    manager: EntityManager,
    skill: OpenedSkill,
    revision: number,
    contentHash: string,
    manifest: SkillManifest | null,
  ): Promise<void> {
    await this.skills.update(
      skill.slug,
      {
        revision: revision + 1,
        contentHash,
        ...(manifest === null
          ? {}
          : {
              name: manifest.name,
              description: manifest.description,
              version: manifest.version,
              toolDependencies: manifest.tool_dependencies,
              mcpDependencies: manifest.mcp_dependencies,
              skillDependencies: manifest.skill_dependencies,
              openFormat: manifest.open_format,
            }),
      },
      manager,
    );
  }
}

/** The file count and the package cap, for `tree` once `path` holds `size` bytes. */
function checkPackageLimits(tree: readonly SkillTreeStat[], path: string, size: number): void {
  const existing = tree.find((file) => file.path === path);
  if (existing === undefined && tree.length >= SKILL_LIMITS.maxFiles)
    throw SkillsErrors.tooManyFiles(SKILL_LIMITS.maxFiles);
  const total = tree.reduce((sum, file) => sum + file.size, 0) - (existing?.size ?? 0) + size;
  if (total > SKILL_LIMITS.maxPackageBytes) throw SkillsErrors.packageTooLarge(SKILL_LIMITS.maxPackageBytes);
}

function textBytes(path: string, content: string): Buffer {
  checkSkillFilePath(path);
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length > SKILL_LIMITS.maxTextFileBytes)
    throw SkillsErrors.fileTooLarge(path, SKILL_LIMITS.maxTextFileBytes);
  if (content.includes('\0')) throw SkillsErrors.notText(path);
  return bytes;
}

/**
 * Opaque: the index revision and stored content hash of a shared skill, the stamp of a personal one's
 * files (no file is read).
 */
export async function treeRevision(skill: OpenedSkill): Promise<string> {
  return revisionOf(skill, skill.kind === 'indexed' ? [] : await statSkillTree(skill.dir));
}

function revisionOf(skill: OpenedSkill, tree: readonly SkillTreeStat[]): string {
  if (skill.kind === 'indexed') return `${skill.row.revision}.${skill.row.contentHash.slice(0, 16)}`;
  return treeStamp(tree);
}
