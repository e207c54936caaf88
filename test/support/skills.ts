import type { ShareConfigInput } from '../../src/common/sharing/resolve-share-config';
import { buildSkillPackage } from '../../src/modules/skills/package/skill-package';
import { SkillsStore } from '../../src/modules/skills/storage/skills.store';
import type { TestContext, TestUser } from './test-app';

/** A SKILL.md with the given frontmatter lines after `name` and `description`. */
export function skillMd(slug: string, extra: string[] = [], body = `# ${slug}\n\nSteps.\n`): string {
  return ['---', `name: ${slug}`, `description: The ${slug} skill.`, ...extra, '---', body].join('\n');
}

export type SkillFiles = Record<string, string | Buffer>;

const packageOf = (files: SkillFiles) =>
  buildSkillPackage(
    Object.entries(files).map(([path, content]) => ({
      path,
      content: typeof content === 'string' ? Buffer.from(content) : content,
    })),
  );

/** Installs a shared skill through the store the install flows use (the drafts API is not needed). */
export function newSharedSkill(
  ctx: TestContext,
  owner: TestUser,
  files: SkillFiles,
  shareConfig?: ShareConfigInput,
): Promise<string> {
  return ctx.app.get(SkillsStore).installShared(owner, packageOf(files), shareConfig);
}

export function newPersonalSkill(ctx: TestContext, user: TestUser, files: SkillFiles): Promise<string> {
  return ctx.app.get(SkillsStore).installPersonal(user, packageOf(files));
}
