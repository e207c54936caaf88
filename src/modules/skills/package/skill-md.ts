import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import { unstorableTextFields } from '../../../common/http/unstorable-text.js';
import { SkillsErrors } from '../skills.errors.js';
import { locateFrontmatter } from './frontmatter.js';
import { isSkillSlug, MAX_NAME_LENGTH, MAX_SLUG_LENGTH } from './skill-slug.js';

export const DEFAULT_SKILL_VERSION = '1.0.0';
export const DEPENDENCY_FIELDS = ['tool_dependencies', 'mcp_dependencies', 'skill_dependencies'] as const;
export type DependencyField = (typeof DEPENDENCY_FIELDS)[number];

const MAX_DESCRIPTION_LENGTH = 4096;
const MAX_VERSION_LENGTH = 64;
const MAX_DEPENDENCIES = 100;
const DEPENDENCY_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
/** Aliases expanded while converting to plain values; more is a "billion laughs" document. */
const MAX_ALIAS_COUNT = 50;

export interface SkillDependencies {
  tool_dependencies: string[];
  mcp_dependencies: string[];
  skill_dependencies: string[];
}

/**
 * Fields of the public Agent Skills format. Kept as written (also in the file, which is never re-serialized
 * around them), shown by the API; `allowed-tools` is informational and never widens access.
 */
export interface OpenFormatFields {
  license: string | null;
  compatibility: string | null;
  metadata: Record<string, unknown> | null;
  allowed_tools: string | string[] | null;
}

export interface SkillManifest extends SkillDependencies {
  slug: string;
  name: string;
  description: string;
  version: string;
  open_format: OpenFormatFields;
}

export interface ParseSkillMdOptions {
  /**
   * The skill's slug when it is already fixed (an installed skill, a builtin folder): a frontmatter
   * `slug` must equal it, and without one the name need not be a slug.
   */
  slug?: string;
}

/** Parses YAML without running anything: YAML 1.2 core schema, unique keys, bounded aliases, no custom tags. */
export function parseFrontmatterYaml(yaml: string): Document.Parsed {
  const doc = parseDocument(yaml, {
    version: '1.2',
    schema: 'core',
    uniqueKeys: true,
    merge: false,
    prettyErrors: false,
  });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) {
    const field = problem.code === 'DUPLICATE_KEY' ? 'frontmatter' : 'frontmatter';
    throw SkillsErrors.invalidSkillMd(field, firstLine(problem.message));
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw SkillsErrors.invalidSkillMd('frontmatter', 'the frontmatter must be a mapping of fields');
  }
  return doc;
}

/** The fields of a SKILL.md, validated; errors name the field (422 `skills.invalid_skill_md`). */
export function parseSkillMd(text: string, options: ParseSkillMdOptions = {}): SkillManifest {
  const doc = parseFrontmatterYaml(locateFrontmatter(text).yaml);
  for (const pair of isMap(doc.contents) ? doc.contents.items : []) {
    if (!isScalar(pair.key) || typeof pair.key.value !== 'string') {
      throw SkillsErrors.invalidSkillMd('frontmatter', 'every field name must be a plain string');
    }
  }
  let fields: Record<string, unknown>;
  try {
    fields = (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {}) as Record<string, unknown>;
  } catch {
    throw SkillsErrors.invalidSkillMd('frontmatter', 'too many YAML aliases');
  }
  refuseUnstorableText(fields);
  const name = requiredText(fields, 'name', MAX_NAME_LENGTH);
  const description = requiredText(fields, 'description', MAX_DESCRIPTION_LENGTH);
  return {
    slug: slugOf(fields, name, options.slug),
    name,
    description,
    version: versionOf(fields.version),
    tool_dependencies: dependencyList(fields, 'tool_dependencies'),
    mcp_dependencies: dependencyList(fields, 'mcp_dependencies'),
    skill_dependencies: dependencyList(fields, 'skill_dependencies'),
    open_format: {
      license: optionalText(fields, 'license'),
      compatibility: optionalText(fields, 'compatibility'),
      metadata: metadataOf(fields.metadata),
      allowed_tools: allowedToolsOf(fields['allowed-tools']),
    },
  };
}

/**
 * YAML escapes (`"a\\0b"`, `"\\ud800"`) can spell text no row or prompt can hold: refused in every key and
 * value, nested ones too, before anything is stored.
 */
function refuseUnstorableText(fields: Record<string, unknown>): void {
  const [problem] = unstorableTextFields(fields);
  if (problem === undefined) return;
  const field = problem.field === 'body' ? 'frontmatter' : problem.field;
  throw SkillsErrors.invalidSkillMd(field, `"${field}" ${problem.messages[0]}`);
}

const firstLine = (message: string): string => message.split('\n')[0].slice(0, 300);

function requiredText(fields: Record<string, unknown>, field: string, max: number): string {
  const value = fields[field];
  if (value === undefined || value === null)
    throw SkillsErrors.invalidSkillMd(field, `"${field}" is required`);
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw SkillsErrors.invalidSkillMd(field, `"${field}" must be a non-empty string`);
  }
  if (value.length > max) throw SkillsErrors.invalidSkillMd(field, `"${field}" is over ${max} characters`);
  return value.trim();
}

function optionalText(fields: Record<string, unknown>, field: string): string | null {
  const value = fields[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw SkillsErrors.invalidSkillMd(field, `"${field}" must be a string`);
  return value;
}

function slugOf(fields: Record<string, unknown>, name: string, fixed: string | undefined): string {
  const given = fields.slug;
  if (given !== undefined && given !== null) {
    if (!isSkillSlug(given)) {
      throw SkillsErrors.invalidSkillMd(
        'slug',
        `"slug" must be lowercase letters and digits joined by single hyphens, at most ${MAX_SLUG_LENGTH} characters`,
      );
    }
    if (fixed !== undefined && given !== fixed) {
      throw SkillsErrors.invalidSkillMd('slug', `"slug" must stay "${fixed}"`);
    }
    return given;
  }
  if (fixed !== undefined) return fixed;
  if (!isSkillSlug(name)) {
    throw SkillsErrors.invalidSkillMd(
      'slug',
      'without "slug", "name" is the slug and must be lowercase letters and digits joined by single hyphens',
    );
  }
  return name;
}

function versionOf(value: unknown): string {
  if (value === undefined || value === null) return DEFAULT_SKILL_VERSION;
  const version = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof version !== 'string' || version.trim() === '' || version.length > MAX_VERSION_LENGTH) {
    throw SkillsErrors.invalidSkillMd(
      'version',
      `"version" must be a string of at most ${MAX_VERSION_LENGTH} characters`,
    );
  }
  return version.trim();
}

function dependencyList(fields: Record<string, unknown>, field: DependencyField): string[] {
  const value = fields[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_DEPENDENCIES) {
    throw SkillsErrors.invalidSkillMd(
      field,
      `"${field}" must be a list of at most ${MAX_DEPENDENCIES} names`,
    );
  }
  const names: unknown[] = value;
  if (!names.every((name) => typeof name === 'string' && DEPENDENCY_NAME.test(name))) {
    throw SkillsErrors.invalidSkillMd(field, `"${field}" must hold names (letters, digits, "_", "-", ".")`);
  }
  if (new Set(names).size !== names.length) {
    throw SkillsErrors.invalidSkillMd(field, `"${field}" names a dependency twice`);
  }
  return names as string[];
}

function metadataOf(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Map) {
    throw SkillsErrors.invalidSkillMd('metadata', '"metadata" must be a mapping');
  }
  return value as Record<string, unknown>;
}

function allowedToolsOf(value: unknown): string | string[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((tool) => typeof tool === 'string')) return value;
  throw SkillsErrors.invalidSkillMd('allowed-tools', '"allowed-tools" must be a string or a list of strings');
}
