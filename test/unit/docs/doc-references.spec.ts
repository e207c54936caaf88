import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The docs explain the product with what a clone of this repository holds: every file they name exists,
 * every code name they put in backticks is written somewhere in the code, and neither the docs nor the
 * code cite documents that live outside the repository.
 */
const root = path.resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const docFiles = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => `${dir}/${name}`)
    .filter((file) => pattern.test(file) && statSync(path.join(root, file)).isFile());
}

/** Inline code spans of a Markdown text (fenced blocks included line by line: they name files too). */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1].trim());
}

/** A span that names a file or folder of the repository: a path with a slash and no spaces or wildcards. */
const FILE_LIKE = /^[\w.@-]+(\/[\w.@-]+)+\/?$/;
/**
 * Folders a doc may name a path relative to (`common/http/…` is `src/common/http/…`; the console's doc
 * names its files from `console/` or `console/src/`).
 */
const BASES = [
  '',
  'src/',
  'src/modules/',
  'src/common/',
  'src/modules/agent-runtime/',
  'test/',
  'console/',
  'console/src/',
];
/** Virtual paths of the product (what agents see) and generated or runtime paths, not repository files. */
const NOT_REPOSITORY = [
  /^\/?home\/gem\//,
  /^dist\//,
  /^(DATA_DIR|<DATA_DIR>)\//,
  /^\.?\/?data\//,
  /^https?:/,
  /^(application|text|multipart)\//,
  /^(owner|github\.com)\//,
  /^node_modules\//,
  /^test-artifacts\//,
];

function missingFiles(doc: string): string[] {
  return codeSpans(read(doc))
    .flatMap((span) => span.split(/[\s,()]+/))
    .map((token) => token.replace(/[.:;]+$/, ''))
    .filter((token) => FILE_LIKE.test(token) && !token.includes('<') && !token.includes('…'))
    .filter((token) => !NOT_REPOSITORY.some((pattern) => pattern.test(token)))
    .filter((token) => /\.[a-z]+$/.test(token) || token.endsWith('/'))
    .filter((token) => !BASES.some((base) => existsSync(path.join(root, base, token))));
}

/** Block comments and whole-line comments removed: a name only a comment mentions does not exist. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const sourceText = filesUnder('src', /\.ts$/)
  .concat(filesUnder('bench', /\.ts$/), filesUnder('test', /\.ts$/), filesUnder('scripts', /./))
  .concat(filesUnder('console/src', /\.(ts|vue)$/))
  .concat(['.env.example', 'package.json', 'docker-compose.yml', 'eslint.config.mjs'])
  .filter((file) => existsSync(path.join(root, file)))
  .map((file) => withoutComments(read(file)))
  .join('\n');

/** Classes of libraries or of the browser the docs name when explaining a cost or a mechanism. */
const LIBRARY_NAMES = new Set(['RunTree', 'EventSource']);

/** Code names in backticks: `PascalCase` classes and `UPPER_SNAKE` constants or variables. */
function unknownNames(doc: string): string[] {
  const names = codeSpans(read(doc))
    .map((span) => span.replace(/[.(].*$/, ''))
    .filter(
      (span) => /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/.test(span) || /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(span),
    );
  return [...new Set(names)].filter(
    (name) => !LIBRARY_NAMES.has(name) && !new RegExp(`\\b${name}\\b`).test(sourceText),
  );
}

describe('the docs cite only what the repository holds', () => {
  it.each(docFiles)('every file path named in %s exists', (doc) => {
    expect(missingFiles(doc)).toEqual([]);
  });

  it.each(docFiles)('every class or constant named in %s exists in the code', (doc) => {
    expect(unknownNames(doc)).toEqual([]);
  });

  it('no doc or code comment cites a document the repository does not have', () => {
    const outside =
      /\b(API|DESIGN|ROADMAP|STYLE|RELIABILITY|TOOLCHAIN)\.md\b|\bseed\s+["“`0-9]|\bRELIABILITY \d/;
    const files = [...docFiles, ...filesUnder('src', /\.ts$/), ...filesUnder('bench', /\.(ts|md)$/)];
    const citing = files.flatMap((file) =>
      read(file)
        .split('\n')
        .map((line, index) => ({ where: `${file}:${index + 1}`, line }))
        .filter(({ line }) => outside.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
    expect(citing).toEqual([]);
  });
});
