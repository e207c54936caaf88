import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '../../../config/app-config.js';
import type { UploadKind } from './parse-skill-upload.js';

/** What a draft remembers; the source bytes lie next to it and are parsed again on confirm. */
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

/**
 * Drafts are files only, under `<DATA_DIR>/skill-drafts/<id>/` (`draft.json` and the uploaded or fetched
 * bytes): a draft lives an hour and is read by id, so a table would add nothing. A draft appears whole
 * (written under a dot-name, then renamed) and is taken whole (renamed away before it is installed), so
 * two confirms cannot both install it.
 */
@Injectable()
export class SkillDraftFiles {
  constructor(private readonly config: AppConfig) {}

  root(): string {
    return join(this.config.dataDir, 'skill-drafts');
  }

  async save(draft: StoredDraft, source: Buffer): Promise<void> {
    const temp = join(this.root(), `.new-${draft.id}`);
    await mkdir(temp, { recursive: true });
    try {
      await writeFile(join(temp, SOURCE), source);
      await writeFile(join(temp, META), JSON.stringify(draft));
      await rename(temp, join(this.root(), draft.id));
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  /** The draft, or `undefined` (no such id, or not a draft id at all). */
  async read(id: string): Promise<StoredDraft | undefined> {
    if (!UUID.test(id)) return undefined;
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
    const taken = await this.take(id);
    await taken?.done();
  }

  /** Removes every draft whose `expires_at` has passed (and leftovers of interrupted writes). */
  async removeExpired(now: Date): Promise<number> {
    let removed = 0;
    const names = await readdir(this.root()).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const draft = await this.read(name);
      if (draft !== undefined && new Date(draft.expires_at) > now) continue;
      await rm(join(this.root(), name), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}
