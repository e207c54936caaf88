import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { roleAtLeast } from '../../../common/auth/user-role.js';
import { AppConfig } from '../../../config/app-config.js';
import type { ShareConfigInput, ShareActor } from '../../../common/sharing/index.js';
import { SkillLocations } from '../storage/skill-locations.js';
import { SkillsRepository } from '../storage/skills.repository.js';
import { SkillsStore } from '../storage/skills.store.js';
import { SkillsErrors } from '../skills.errors.js';
import { SkillsService } from '../skills.service.js';
import { parseSkillUpload, uploadKindOf, type ParsedSkill, type UploadKind } from './parse-skill-upload.js';
import { installOrder, selectedSkills } from './select-skills.js';
import { isDraftId, SkillDraftFiles, type DraftItem, type StoredDraft } from './skill-draft-files.js';
import { DRAFT_TTL_MS } from './skill-drafts-retention.js';
import { checkLimits, SkillDraftsRepository } from './skill-drafts.repository.js';

export type DraftView = Omit<StoredDraft, 'owner_id' | 'kind' | 'items' | 'created_at'> & {
  items: Omit<DraftItem, 'folder'>[];
};

export interface InstalledSkill {
  /** The slug the draft proposed… */
  draft_slug: string;
  /** …and the one installed (`<slug>-v2`, … when a shared skill had it). */
  slug: string;
  warnings: string[];
}

export interface ConfirmDraftInput {
  target: 'personal' | 'shared';
  slugs?: string[];
  share_config?: ShareConfigInput;
}

/** An upload multer streamed to a temp file. */
export interface UploadedSource {
  path: string;
  size: number;
}

/**
 * Skill drafts: an upload or a fetched archive parsed into skills and kept for an hour for its creator
 * to confirm (install) or discard, within the per-user caps (count and bytes). An expired draft is not
 * found; the maintenance job (`SkillDraftsRetention`) removes it.
 */
@Injectable()
export class SkillDraftsService {
  constructor(
    private readonly config: AppConfig,
    private readonly files: SkillDraftFiles,
    private readonly rows: SkillDraftsRepository,
    private readonly store: SkillsStore,
    private readonly skills: SkillsRepository,
    private readonly locations: SkillLocations,
    private readonly catalog: SkillsService,
  ) {}

  /**
   * Parses the source (a zip or a SKILL.md: `kind`, by default told by the bytes), optionally keeps only
   * the skills named, and stores the draft within the owner's caps. A refusal writes nothing.
   */
  async create(
    owner: ShareActor,
    source: UploadedSource | Buffer,
    options: { skillNames?: string[]; kind?: UploadKind } = {},
  ): Promise<DraftView> {
    const size = Buffer.isBuffer(source) ? source.length : source.size;
    await this.assertRoom(owner, size);
    // The archive reader needs the whole zip (its directory lies at the end); at most the upload limit.
    const bytes = Buffer.isBuffer(source) ? source : await readFile(source.path);
    const { skillNames } = options;
    const kind = options.kind ?? uploadKindOf(bytes);
    const parsed = parseSkillUpload(bytes, kind);
    const items = skillNames === undefined ? parsed.items : selectedSkills(parsed.items, skillNames);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + DRAFT_TTL_MS);
    const draft: StoredDraft = {
      id: randomUUID(),
      owner_id: owner.id,
      kind,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      items: await Promise.all(items.map((item) => this.itemOf(owner, item))),
      failures: skillNames === undefined ? parsed.failures : [],
    };
    await this.rows.insertWithin(
      { id: draft.id, ownerId: owner.id, bytes: size, expiresAt },
      this.limits(),
      () => this.files.save(draft, Buffer.isBuffer(source) ? { bytes: source } : { tempPath: source.path }),
    );
    return view(draft);
  }

  /**
   * Refuses (409) when `owner` has no room for one more draft of `bytes`. Checked again under the owner's
   * lock when the row is added; this spares the parse (or the fetch) when there is none.
   */
  async assertRoom(owner: ShareActor, bytes: number): Promise<void> {
    checkLimits(await this.rows.usage(owner.id), bytes, this.limits());
  }

  /**
   * Installs the draft's skills (all, or `slugs`) and consumes the draft. Shared: admins only, each
   * skill's dependencies and the share config validated by the store; a failure removes the shared
   * skills this confirm installed and keeps the draft.
   */
  async confirm(actor: ShareActor, id: string, input: ConfirmDraftInput): Promise<InstalledSkill[]> {
    const draft = await this.owned(actor, id, false);
    if (input.target === 'shared' && !roleAtLeast(actor.role, 'admin')) {
      throw SkillsErrors.sharedInstallForbidden();
    }
    const wanted = input.slugs ?? draft.items.map((item) => item.slug);
    const unknown = wanted.filter((slug) => !draft.items.some((item) => item.slug === slug));
    if (unknown.length > 0) throw SkillsErrors.unknownSkillNames('slugs', unknown);
    const taken = await this.files.take(id);
    if (taken === undefined) throw SkillsErrors.draftNotFound(id);
    const installed: InstalledSkill[] = [];
    try {
      const parsed = parseSkillUpload(taken.source, draft.kind).items;
      for (const item of installOrder(parsed.filter((p) => wanted.includes(p.pkg.manifest.slug)))) {
        const slug =
          input.target === 'shared'
            ? await this.store.installShared(actor, item.pkg, input.share_config)
            : await this.store.installPersonal(actor, item.pkg);
        const draftSlug = item.pkg.manifest.slug;
        installed.push({
          draft_slug: draftSlug,
          slug,
          warnings:
            slug === draftSlug
              ? []
              : [`The slug "${draftSlug}" is taken by a shared skill: installed as "${slug}".`],
        });
      }
      await taken.done();
      await this.rows.delete(id);
      return installed;
    } catch (error) {
      // All or nothing for shared installs: the ones already made are removed again, so a retry of the
      // restored draft does not install them twice (as `-v2`).
      if (input.target === 'shared') {
        for (const done of installed)
          await this.catalog.removeShared(actor, done.slug).catch(() => undefined);
      }
      await taken.restore();
      throw error;
    }
  }

  /** Discards the draft (its creator, or an admin). */
  async discard(actor: ShareActor, id: string): Promise<void> {
    await this.owned(actor, id, true);
    await this.files.remove(id);
    await this.rows.delete(id);
  }

  private limits() {
    return { count: this.config.skills.draftsPerUser, bytes: this.config.skills.draftBytesPerUser };
  }

  /** The draft, when it has not expired and `actor` may use it; 404 otherwise (its existence not told). */
  private async owned(actor: ShareActor, id: string, adminMay: boolean): Promise<StoredDraft> {
    const live = isDraftId(id) && (await this.rows.findLiveOwner(id)) !== null;
    const draft = live ? await this.files.read(id) : undefined;
    const mayUse =
      draft !== undefined && (draft.owner_id === actor.id || (adminMay && roleAtLeast(actor.role, 'admin')));
    if (!mayUse) throw SkillsErrors.draftNotFound(id);
    return draft;
  }

  private async itemOf(owner: ShareActor, item: ParsedSkill): Promise<DraftItem> {
    const m = item.pkg.manifest;
    const warnings: string[] = [];
    if ((await this.skills.findBySlug(m.slug)) !== null) {
      warnings.push(
        `A shared skill "${m.slug}" exists: installed as a shared skill, this one gets the next free slug ("${m.slug}-v2", …).`,
      );
    }
    if (await this.locations.hasPersonal(owner, m.slug)) {
      warnings.push(`Installed as a personal skill, this replaces your personal skill "${m.slug}".`);
    }
    return {
      slug: m.slug,
      name: m.name,
      description: m.description,
      version: m.version,
      tool_dependencies: m.tool_dependencies,
      mcp_dependencies: m.mcp_dependencies,
      skill_dependencies: m.skill_dependencies,
      warnings,
      folder: item.folder,
    };
  }
}

function view(draft: StoredDraft): DraftView {
  return {
    id: draft.id,
    expires_at: draft.expires_at,
    items: draft.items.map(({ folder: _folder, ...item }) => item),
    failures: draft.failures,
  };
}
