import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DomainError } from '../../../common/errors/index.js';
import { installationDir } from '../../../common/installation/index.js';
import { buildSkillPackage, type SkillPackage } from '../package/skill-package.js';
import { isSkillSlug } from '../package/skill-slug.js';
import { readSkillFiles } from '../storage/skill-files.js';

/** A builtin skill folder that cannot be used: the start fails with this message. */
export class InvalidBuiltinSkillError extends Error {
  constructor(folder: string, reason: string) {
    super(`builtin skill "${folder}" is invalid: ${reason}`);
    this.name = 'InvalidBuiltinSkillError';
  }
}

/** `skills/builtin` of this installation. */
export function defaultBuiltinSkillsDir(): string {
  return join(installationDir(), 'skills', 'builtin');
}

/**
 * Reads every builtin skill: the direct subfolders of `dir` in name order, skipping names that start
 * with `_` or `.`; the slug is the folder name, which the SKILL.md must not contradict.
 */
export async function loadBuiltinSkillPackages(dir: string): Promise<SkillPackage[]> {
  const root = resolve(dir);
  const entries = await readdir(root, { withFileTypes: true }).catch((error: unknown) => {
    throw new Error(`builtin skills folder ${root} cannot be read: ${(error as Error).message}`);
  });
  const folders = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_') && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const packages: SkillPackage[] = [];
  for (const folder of folders) {
    if (!isSkillSlug(folder)) {
      throw new InvalidBuiltinSkillError(
        folder,
        'the folder name is not a slug (lowercase, digits, single hyphens)',
      );
    }
    try {
      packages.push(buildSkillPackage(await readSkillFiles(join(root, folder)), { slug: folder }));
    } catch (error) {
      const field =
        error instanceof DomainError && typeof error.details?.field === 'string'
          ? ` (field ${error.details.field})`
          : '';
      throw new InvalidBuiltinSkillError(folder, `${(error as Error).message}${field}`);
    }
  }
  return packages;
}
