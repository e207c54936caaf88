/** A SKILL.md with the given frontmatter lines after `name` and `description`. */
export function skillMd(slug: string, extra: string[] = [], body = `# ${slug}\n\nSteps.\n`): string {
  return ['---', `name: ${slug}`, `description: The ${slug} skill.`, ...extra, '---', body].join('\n');
}
