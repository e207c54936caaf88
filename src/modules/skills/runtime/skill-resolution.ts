import { Injectable } from '@nestjs/common';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedRunSkills, RunSkill, RunSkillResolver } from '../../agent-runtime/index.js';
import type { ShareActor } from '../../../common/sharing/index.js';
import { PERSONAL_SKILLS_ROOT, SHARED_SKILLS_ROOT } from '../../workspace/index.js';
import { parseSkillMd } from '../package/skill-md.js';
import { isSkillSlug } from '../package/skill-slug.js';
import { SkillsErrors } from '../skills.errors.js';
import type { SkillEntity } from '../storage/skill.entity.js';
import { SkillLocations } from '../storage/skill-locations.js';
import { SkillsRepository } from '../storage/skills.repository.js';

const ROOT = 'SKILL.md';

/** A personal SKILL.md as last parsed, kept while the file's stamp (mtime and size) is unchanged. */
interface ParsedPersonal {
  stamp: string;
  skill: RunSkill;
  skillDependencies: string[];
}

/**
 * Step 1 of assembly for skills: the readable, enabled shared/builtin skills of the agent's selection,
 * every personal skill of the user (a personal skill overrides a shared one of the same slug), then the
 * dependency closure (readable, enabled shared skills), ordered and de-duplicated. Shared skills come
 * from the index (no file read); preloaded SKILL.md contents are cached by revision and personal
 * SKILL.md files by their stamp, so unchanged files are never read again.
 */
@Injectable()
export class SkillResolution implements RunSkillResolver {
  private readonly personal = new Map<string, ParsedPersonal>();
  private readonly preloadContent = new Map<string, { key: string; content: string }>();

  constructor(
    private readonly repository: SkillsRepository,
    private readonly locations: SkillLocations,
  ) {}

  async resolveForRun(actor: ShareActor, selection: string[], preload: string[]): Promise<ResolvedRunSkills> {
    const [rows, personal] = await Promise.all([
      this.repository.listReadable(actor),
      this.personalSkills(actor),
    ]);
    const shared = new Map(rows.filter((row) => row.enabled).map((row) => [row.slug, row]));
    const personalBySlug = new Map(personal.map((entry) => [entry.skill.slug, entry]));
    const result = new Map<string, RunSkill>();
    const pending: string[] = [];
    const add = (slug: string): void => {
      if (result.has(slug)) return;
      const own = personalBySlug.get(slug);
      if (own !== undefined) {
        result.set(slug, own.skill);
        pending.push(...own.skillDependencies);
        return;
      }
      const row = shared.get(slug);
      if (row === undefined) return;
      result.set(slug, sharedSkill(row));
      pending.push(...row.skillDependencies);
    };
    for (const slug of selection) add(slug);
    for (const entry of personal) add(entry.skill.slug);
    // Breadth first: every dependency follows the skills that need it, each once.
    while (pending.length > 0) add(pending.shift()!);

    const preloaded = await Promise.all(
      preload
        .filter((slug) => shared.has(slug) && result.get(slug)?.source !== 'personal')
        .map(async (slug) => ({ slug, content: await this.rootOf(shared.get(slug)!) })),
    );
    return { skills: [...result.values()], preloaded };
  }

  /** The root SKILL.md of a preloaded skill: a stat each run (it must exist), a read only when changed. */
  private async rootOf(row: SkillEntity): Promise<string> {
    const file = join(this.locations.sharedDir(row.slug), ROOT);
    const stamp = await fileStamp(file);
    if (stamp === null) throw SkillsErrors.preloadRootMissing(row.slug);
    const key = `${row.revision}:${stamp}`;
    const cached = this.preloadContent.get(row.slug);
    if (cached?.key === key) return cached.content;
    let content: string;
    try {
      content = await readFile(file, 'utf8');
    } catch {
      throw SkillsErrors.preloadRootMissing(row.slug);
    }
    this.preloadContent.set(row.slug, { key, content });
    return content;
  }

  private async personalSkills(user: ShareActor): Promise<ParsedPersonal[]> {
    const root = this.locations.personalRoot(user);
    let names: string[];
    try {
      names = (await readdir(root, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() && isSkillSlug(entry.name))
        .map((entry) => entry.name)
        .sort();
    } catch {
      return [];
    }
    const parsed = await Promise.all(names.map((slug) => this.personalSkill(join(root, slug, ROOT), slug)));
    return parsed.filter((entry): entry is ParsedPersonal => entry !== null);
  }

  private async personalSkill(file: string, slug: string): Promise<ParsedPersonal | null> {
    const stamp = await fileStamp(file);
    if (stamp === null) return null;
    const cached = this.personal.get(file);
    if (cached?.stamp === stamp) return cached;
    try {
      const manifest = parseSkillMd(await readFile(file, 'utf8'));
      const entry: ParsedPersonal = {
        stamp,
        skill: {
          slug,
          name: manifest.name,
          description: manifest.description,
          path: `${PERSONAL_SKILLS_ROOT}/${slug}/${ROOT}`,
          source: 'personal',
          revision: stamp,
          tool_dependencies: manifest.tool_dependencies,
          mcp_dependencies: manifest.mcp_dependencies,
        },
        skillDependencies: manifest.skill_dependencies,
      };
      this.personal.set(file, entry);
      return entry;
    } catch {
      // A personal SKILL.md the user broke by hand is left out of the run, not fatal to it.
      return null;
    }
  }
}

function sharedSkill(row: SkillEntity): RunSkill {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    path: `${SHARED_SKILLS_ROOT}/${row.slug}/${ROOT}`,
    source: row.sourceType,
    revision: String(row.revision),
    tool_dependencies: row.toolDependencies,
    mcp_dependencies: row.mcpDependencies,
  };
}

/** Modification time and size of a regular file, or null when it is missing (or not a file). */
async function fileStamp(file: string): Promise<string | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? `${info.mtimeMs}:${info.size}` : null;
  } catch {
    return null;
  }
}
