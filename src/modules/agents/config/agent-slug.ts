export const AGENT_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const AGENT_SLUG_MIN = 2;
export const AGENT_SLUG_MAX = 64;
/** Room left for a `-N` suffix when a generated slug clashes. */
const SUFFIX_ROOM = 6;

export function isValidAgentSlug(slug: string): boolean {
  return slug.length >= AGENT_SLUG_MIN && slug.length <= AGENT_SLUG_MAX && AGENT_SLUG_PATTERN.test(slug);
}

/** A slug from a display name: ASCII letters and digits joined by single hyphens; `agent` when none remain. */
export function slugFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, AGENT_SLUG_MAX - SUFFIX_ROOM)
    .replace(/^-+|-+$/g, '');
  if (base.length === 0) return 'agent';
  return base.length < AGENT_SLUG_MIN ? `agent-${base}` : base;
}

/** The first of `base`, `base-2`, `base-3`, … that is not taken. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
