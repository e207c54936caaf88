import { DomainError } from '../../../src/common/errors/domain-error';
import { withDependencies } from '../../../src/modules/skills/package/frontmatter-edit';
import { parseSkillMd } from '../../../src/modules/skills/package/skill-md';
import { buildSkillPackage } from '../../../src/modules/skills/package/skill-package';
import { checkSkillFilePath } from '../../../src/modules/skills/package/skill-path';

const md = (frontmatter: string, body = '# Body\n') => `---\n${frontmatter}\n---\n${body}`;

/** The refusal's code and `details.field`, or `null` when it parsed. */
function refusal(run: () => unknown): { code: string; field: unknown } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, field: error.details?.field };
  }
}
const invalid = (field: string) => ({ code: 'skills.invalid_skill_md', field });

describe('SKILL.md parsing', () => {
  it('reads the fields, defaults the version and the slug to the name, and empty dependency lists', () => {
    expect(parseSkillMd(md('name: doc-cleanup\ndescription: Tidy documents.'))).toEqual({
      slug: 'doc-cleanup',
      name: 'doc-cleanup',
      description: 'Tidy documents.',
      version: '1.0.0',
      tool_dependencies: [],
      mcp_dependencies: [],
      skill_dependencies: [],
      open_format: { license: null, compatibility: null, metadata: null, allowed_tools: null },
    });
  });

  it('keeps an explicit slug apart from a natural-language name', () => {
    const manifest = parseSkillMd(
      md(
        'name: 文档整理\nslug: document-cleanup\ndescription: x\nversion: "2.1.0"\ntool_dependencies: [web_search]',
      ),
    );
    expect(manifest).toMatchObject({
      slug: 'document-cleanup',
      name: '文档整理',
      version: '2.1.0',
      tool_dependencies: ['web_search'],
    });
  });

  it('names the field of each refusal', () => {
    expect(refusal(() => parseSkillMd(md('description: x')))).toEqual(invalid('name'));
    expect(refusal(() => parseSkillMd(md('name: a')))).toEqual(invalid('description'));
    expect(refusal(() => parseSkillMd(md('name: 文档整理\ndescription: x')))).toEqual(invalid('slug'));
    expect(refusal(() => parseSkillMd(md('name: a\nslug: a--b\ndescription: x')))).toEqual(invalid('slug'));
    expect(refusal(() => parseSkillMd(md(`name: a\nslug: ${'a'.repeat(129)}\ndescription: x`)))).toEqual(
      invalid('slug'),
    );
    expect(refusal(() => parseSkillMd(md(`name: ${'a'.repeat(129)}\ndescription: x`)))).toEqual(
      invalid('name'),
    );
    expect(refusal(() => parseSkillMd(md('name: a\ndescription: x\ntool_dependencies: web_search')))).toEqual(
      invalid('tool_dependencies'),
    );
    expect(refusal(() => parseSkillMd(md('name: a\ndescription: x\nskill_dependencies: [1]')))).toEqual(
      invalid('skill_dependencies'),
    );
    expect(refusal(() => parseSkillMd(md('name: a\ndescription: x\nmcp_dependencies: [k, k]')))).toEqual(
      invalid('mcp_dependencies'),
    );
    expect(refusal(() => parseSkillMd(md('name: a\ndescription: x\nversion: [1]')))).toEqual(
      invalid('version'),
    );
    expect(refusal(() => parseSkillMd('# no frontmatter\n'))).toEqual(invalid('frontmatter'));
    expect(refusal(() => parseSkillMd('---\nname: a\ndescription: x\n'))).toEqual(invalid('frontmatter'));
  });

  it('refuses duplicate keys, custom tags and alias bombs, and runs no code', () => {
    expect(refusal(() => parseSkillMd(md('name: a\nname: b\ndescription: x')))).toEqual(
      invalid('frontmatter'),
    );
    const js = md('name: a\ndescription: !!js/function "function () { globalThis.ran = true }"');
    expect(refusal(() => parseSkillMd(js))).toEqual(invalid('frontmatter'));
    expect((globalThis as { ran?: boolean }).ran).toBeUndefined();
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `l${i}: &l${i} [${Array(9)
          .fill(`*${i === 1 ? 'a' : `l${i - 1}`}`)
          .join(',')}]`,
      );
    expect(refusal(() => parseSkillMd(md(`name: a\ndescription: x\n${levels.join('\n')}`)))).toEqual(
      invalid('frontmatter'),
    );
    expect(refusal(() => parseSkillMd(md(`name: a\ndescription: "${'x'.repeat(70_000)}"`)))).toEqual(
      invalid('frontmatter'),
    );
  });

  it('keeps the public Agent Skills fields', () => {
    const manifest = parseSkillMd(
      md(
        'name: pdf\ndescription: PDFs.\nlicense: Complete terms in LICENSE.txt\ncompatibility: Requires python3\n' +
          'metadata:\n  author: example-org\n  version: "1.0"\nallowed-tools: Bash(git:*) Read',
      ),
    );
    expect(manifest.open_format).toEqual({
      license: 'Complete terms in LICENSE.txt',
      compatibility: 'Requires python3',
      metadata: { author: 'example-org', version: '1.0' },
      allowed_tools: 'Bash(git:*) Read',
    });
  });

  it('keeps a fixed slug: a different frontmatter slug is refused, a missing one is not needed', () => {
    expect(parseSkillMd(md('name: Research\ndescription: x'), { slug: 'deep-research' }).slug).toBe(
      'deep-research',
    );
    expect(refusal(() => parseSkillMd(md('name: a\nslug: other\ndescription: x'), { slug: 'a' }))).toEqual(
      invalid('slug'),
    );
  });
});

describe('writing dependencies back', () => {
  const original = [
    '---',
    'name: pdf # the public format',
    'description: PDFs.',
    'license: Proprietary. LICENSE.txt has complete terms',
    'metadata:',
    '  author: example-org',
    "  version: '1.0'",
    'allowed-tools: Bash(git:*) Read',
    'tool_dependencies:',
    '  - ls',
    '  - read_file',
    'skill_dependencies: []',
    '---',
    '# PDF',
    '',
    'Body text stays byte for byte.  ',
    '',
  ].join('\n');

  it('replaces only the dependency fields, appending missing ones', () => {
    const next = withDependencies(original, {
      tool_dependencies: ['web_search'],
      mcp_dependencies: ['knowledge'],
      skill_dependencies: ['html-preview'],
    });
    expect(next).toBe(
      original
        .replace('tool_dependencies:\n  - ls\n  - read_file\n', 'tool_dependencies: ["web_search"]\n')
        .replace(
          'skill_dependencies: []\n',
          'skill_dependencies: ["html-preview"]\nmcp_dependencies: ["knowledge"]\n',
        ),
    );
    expect(parseSkillMd(next)).toMatchObject({
      tool_dependencies: ['web_search'],
      mcp_dependencies: ['knowledge'],
      skill_dependencies: ['html-preview'],
      open_format: {
        license: 'Proprietary. LICENSE.txt has complete terms',
        allowed_tools: 'Bash(git:*) Read',
      },
    });
  });
});

describe('packages and paths', () => {
  const file = (path: string, content = 'x') => ({ path, content: Buffer.from(content) });
  const skillMd = file('SKILL.md', md('name: a\ndescription: x'));

  it('refuses traversal, absolute, backslash, NUL and empty segments', () => {
    for (const path of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'a\0b', 'a//b', './a', 'C:/x', '']) {
      expect(refusal(() => checkSkillFilePath(path))?.code).toBe('skills.invalid_path');
    }
    expect(checkSkillFilePath('references/guide.md')).toBe('references/guide.md');
  });

  it('needs a root SKILL.md and unique paths, and keeps binary files byte for byte', () => {
    expect(refusal(() => buildSkillPackage([file('README.md')]))).toEqual(invalid('frontmatter'));
    expect(refusal(() => buildSkillPackage([skillMd, file('a'), file('a')]))?.code).toBe(
      'skills.invalid_path',
    );
    expect(refusal(() => buildSkillPackage([skillMd, file('a'), file('a/b')]))?.code).toBe(
      'skills.invalid_path',
    );
    const binary = { path: 'assets/logo.png', content: Buffer.from([0x89, 0x50, 0, 0xff]) };
    const pkg = buildSkillPackage([skillMd, binary]);
    expect(pkg.manifest.slug).toBe('a');
    expect(pkg.files.find((f) => f.path === 'assets/logo.png')?.content.equals(binary.content)).toBe(true);
  });
});
