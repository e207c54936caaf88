import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '../../../config/app-config.js';
import type { UploadKind } from './parse-skill-upload.js';

/** What a draft remembers; the source lies next to it and is parsed again on confirm. */
export interface StoredDraft {
  id: string;
  owner_id: string;
  kind: UploadKind;
  created_at: string;
  expires_at: string;
  items: DraftItem[];
  failures: { path: string; error: string; code: string }[];
}

export interface DraftItem {
  slug: string;
  name: string;
  description: string;
  version: string;
  tool_dependencies: string[];
  mcp_dependencies: string[];
  skill_dependencies: string[];
  warnings: string[];
  /** Where the skill lies in the source (not part of the API answer). */
  folder: string;
}

const META = 'draft.json';
const SOURCE = 'source.bin';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isDraftId = (id: string): boolean => UUID.test(id);

/** A draft's source: an upload multer streamed to a temp file (moved in), or bytes already in memory. */
export type DraftSource = { tempPath: string } | { bytes: Buffer };

/**
 * The files of drafts, under `<DATA_DIR>/skill-drafts/<id>/` (`draft.json` and the uploaded or fetched
 * source); their rows (`SkillDraftsRepository`) count them against the caps. A draft appears whole
 * (written under a dot-name, then renamed) and is taken whole (renamed away before it is installed), so
 * two confirms cannot both install it.
 */
@Injectable()
export class SkillDraftFiles {
  constructor(private readonly config: AppConfig) {}

  root(): string {
    return join(this.config.dataDir, 'skill-drafts');
  }

  async save(draft: StoredDraft, source: DraftSource): Promise<void> {
    const temp = join(this.root(), `.new-${draft.id}`);
    await mkdir(temp, { recursive: true });
    try {
      // The upload temp folder lies under DATA_DIR too: a rename, not a copy.
      if ('tempPath' in source) await rename(source.tempPath, join(temp, SOURCE));
      else await writeFile(join(temp, SOURCE), source.bytes);
      await writeFile(join(temp, META), JSON.stringify(draft));
      await rename(temp, join(this.root(), draft.id));
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  /** The draft, or `undefined` (no such id, or not a draft id at all). */
  async read(id: string): Promise<StoredDraft | undefined> {
    if (!isDraftId(id)) return undefined;
    try {
      return JSON.parse(await readFile(join(this.root(), id, META), 'utf8')) as StoredDraft;
    } catch {
      return undefined;
    }
  }

  /**
   * Moves the draft out of reach and returns its source and a function that deletes it for good
   * (`done`) or puts it back (`restore`, after a failed install); `undefined` when another caller took it.
   */
  async take(
    id: string,
  ): Promise<{ source: Buffer; done: () => Promise<void>; restore: () => Promise<void> } | undefined> {
    const taken = join(this.root(), `.taken-${id}-${randomUUID()}`);
    try {
      await rename(join(this.root(), id), taken);
    } catch {
      return undefined;
    }
    return {
      source: await readFile(join(taken, SOURCE)),
      done: () => rm(taken, { recursive: true, force: true }),
      restore: () => rename(taken, join(this.root(), id)),
    };
  }

  async remove(id: string): Promise<void> {
    if (!isDraftId(id)) return;
    const taken = await this.take(id);
    await taken?.done();
  }

  /**
   * Removes the folders no row accounts for (`live` holds the ids that have one) and last changed before
   * `before`: a draft whose row was deleted, the leftovers of an interrupted write or confirm. The age
   * spares a draft being created, whose folder appears before its row is committed.
   */
  async removeUnaccounted(live: ReadonlySet<string>, before: Date): Promise<number> {
    let removed = 0;
    const names = await readdir(this.root()).catch(() => [] as string[]);
    for (const name of names) {
      if (live.has(name)) continue;
      const path = join(this.root(), name);
      const info = await stat(path).catch(() => null);
      if (info === null || info.mtime >= before) continue;
      await rm(path, { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}
