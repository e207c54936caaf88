import { isMap, isScalar } from 'yaml';
import { locateFrontmatter } from './frontmatter.js';
import { DEPENDENCY_FIELDS, parseFrontmatterYaml, type SkillDependencies } from './skill-md.js';

/**
 * Sets top-level frontmatter fields of a SKILL.md, changing nothing else: each field's text is replaced
 * in place (a missing one is appended to the frontmatter), so every other field, comment and the body
 * keep their exact bytes (open-format fields such as `license` or `allowed-tools` included).
 */
export function withFrontmatterFields(text: string, fields: Record<string, string | string[]>): string {
  const block = locateFrontmatter(text);
  const doc = parseFrontmatterYaml(block.yaml);
  const edits: { from: number; to: number; text: string }[] = [];
  const missing = new Set(Object.keys(fields));
  for (const pair of isMap(doc.contents) ? doc.contents.items : []) {
    if (!isScalar(pair.key) || !missing.has(String(pair.key.value))) continue;
    const field = String(pair.key.value);
    missing.delete(field);
    const keyRange = pair.key.range;
    if (keyRange === undefined || keyRange === null) continue;
    const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range;
    const to = valueRange === undefined ? keyRange[1] : valueRange[1];
    // A block value's range ends after its last line break; keep that break.
    const keepsNewline = block.yaml[to - 1] === '\n';
    edits.push({ from: keyRange[0], to, text: line(field, fields[field]) + (keepsNewline ? '\n' : '') });
  }
  let yaml = block.yaml;
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    yaml = yaml.slice(0, edit.from) + edit.text + yaml.slice(edit.to);
  }
  const appended = [...missing].map((field) => `${line(field, fields[field])}\n`).join('');
  if (appended !== '' && yaml !== '' && !yaml.endsWith('\n')) yaml += '\n';
  return text.slice(0, block.start) + yaml + appended + text.slice(block.end);
}

/** Writes the three dependency lists into the root file (`PUT /api/skills/:slug/dependencies`). */
export function withDependencies(text: string, dependencies: SkillDependencies): string {
  return withFrontmatterFields(
    text,
    Object.fromEntries(DEPENDENCY_FIELDS.map((field) => [field, dependencies[field]])),
  );
}

/** JSON strings and flow sequences of them are valid YAML and need no quoting rules of their own. */
const line = (field: string, value: string | string[]): string =>
  `${field}: ${typeof value === 'string' ? JSON.stringify(value) : `[${value.map((name) => JSON.stringify(name)).join(', ')}]`}`;
