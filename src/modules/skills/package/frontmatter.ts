import { SkillsErrors } from '../skills.errors.js';

export const MAX_FRONTMATTER_CHARS = 64 * 1024;

/** Where the YAML block of a SKILL.md sits in its text (offsets into the text). */
export interface FrontmatterBlock {
  yaml: string;
  /** Offset of the first YAML character (after the opening `---` line). */
  start: number;
  /** Offset just past the last YAML character (the closing `---` line starts here). */
  end: number;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING_LINE = /^(?:---|\.\.\.)[ \t]*\r?$/;

/** Finds the frontmatter: the text opens with a `---` line and a later `---` (or `...`) line closes it. */
export function locateFrontmatter(text: string): FrontmatterBlock {
  const opening = OPENING.exec(text);
  if (opening === null) {
    throw SkillsErrors.invalidSkillMd(
      'frontmatter',
      'the file must start with a YAML frontmatter block (---)',
    );
  }
  const start = opening[0].length;
  let lineStart = start;
  while (lineStart <= text.length && lineStart - start <= MAX_FRONTMATTER_CHARS) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    if (CLOSING_LINE.test(text.slice(lineStart, lineEnd))) {
      return { yaml: text.slice(start, lineStart), start, end: lineStart };
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  if (lineStart - start > MAX_FRONTMATTER_CHARS) {
    throw SkillsErrors.invalidSkillMd(
      'frontmatter',
      `the frontmatter is over ${MAX_FRONTMATTER_CHARS} characters`,
    );
  }
  throw SkillsErrors.invalidSkillMd('frontmatter', 'the frontmatter block is not closed by a --- line');
}
