import { isMap, isScalar } from 'yaml';
import { locateFrontmatter } from './frontmatter.js';
import { DEPENDENCY_FIELDS, parseFrontmatterYaml, type SkillDependencies } from './skill-md.js';

/**
 * Writes dependency lists into a SKILL.md, changing nothing else: each dependency field's text is
 * replaced in place (a missing one is appended to the frontmatter), so every other field, comment and
 * the body keep their exact bytes (open-format fields such as `license` or `allowed-tools` included).
 */
export function withDependencies(text: string, dependencies: SkillDependencies): string {
  const block = locateFrontmatter(text);
  const doc = parseFrontmatterYaml(block.yaml);
  const edits: { from: number; to: number; text: string }[] = [];
  const missing = new Set<string>(DEPENDENCY_FIELDS);
  for (const pair of isMap(doc.contents) ? doc.contents.items : []) {
    if (!isScalar(pair.key) || !missing.has(String(pair.key.value))) continue;
    const field = String(pair.key.value) as (typeof DEPENDENCY_FIELDS)[number];
    missing.delete(field);
    const keyRange = pair.key.range;
    const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range;
    if (keyRange === undefined || keyRange === null) continue;
    const to = valueRange === undefined ? keyRange[1] : valueRange[1];
    const keepsNewline = block.yaml[to - 1] === '\n';
    edits.push({
      from: keyRange[0],
      to,
      text: line(field, dependencies[field]) + (keepsNewline ? '\n' : ''),
    });
  }
  let yaml = block.yaml;
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    yaml = yaml.slice(0, edit.from) + edit.text + yaml.slice(edit.to);
  }
  const appended = DEPENDENCY_FIELDS.filter((field) => missing.has(field))
    .map((field) => `${line(field, dependencies[field])}\n`)
    .join('');
  if (appended !== '' && yaml !== '' && !yaml.endsWith('\n')) yaml += '\n';
  return text.slice(0, block.start) + yaml + appended + text.slice(block.end);
}

/** A flow sequence of JSON strings is valid YAML and needs no quoting rules of its own. */
const line = (field: string, names: string[]): string =>
  `${field}: [${names.map((name) => JSON.stringify(name)).join(', ')}]`;
