/** A skill's stable id: lowercase letters and digits in groups joined by single hyphens. */
export const SKILL_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 128;
export const MAX_NAME_LENGTH = 128;

export function isSkillSlug(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_SLUG_LENGTH && SKILL_SLUG.test(value);
}
