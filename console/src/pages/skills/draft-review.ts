import { ApiError } from '../../api/api-error';
import type { Role, ShareConfig, SkillDraft, SkillDraftFailure } from '../../api/types';

export type InstallTarget = 'personal' | 'shared';

/** Only an admin may install a shared skill (the service answers 403 to anyone else). */
export function installTargets(role: Role | undefined): InstallTarget[] {
  return role === 'admin' || role === 'superadmin' ? ['personal', 'shared'] : ['personal'];
}

/**
 * The body of a confirm: the skills ticked (left out when all are, the service's default) and, for a
 * shared install, the share config.
 */
export function confirmBody(
  draft: SkillDraft,
  target: InstallTarget,
  chosen: string[],
  shareConfig: ShareConfig,
): { target: InstallTarget; slugs?: string[]; share_config?: ShareConfig } {
  const all = draft.items.every((item) => chosen.includes(item.slug));
  const slugs = draft.items.map((item) => item.slug).filter((slug) => chosen.includes(slug));
  return {
    target,
    ...(all ? {} : { slugs }),
    ...(target === 'shared' ? { share_config: shareConfig } : {}),
  };
}

/**
 * The folders a refused upload names (422 `skills.no_skill_found` lists each SKILL.md it could not parse),
 * so the page can say what was wrong with each one.
 */
export function refusedFolders(caught: unknown): Pick<SkillDraftFailure, 'path' | 'error'>[] {
  if (!(caught instanceof ApiError)) return [];
  const failures = caught.details?.failures;
  if (!Array.isArray(failures)) return [];
  return failures.filter(
    (failure): failure is { path: string; error: string } =>
      typeof failure === 'object' &&
      failure !== null &&
      typeof (failure as { path?: unknown }).path === 'string' &&
      typeof (failure as { error?: unknown }).error === 'string',
  );
}
