import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkspaceErrors } from '../workspace/index.js';
import { OcrErrors } from './ocr.errors.js';

/** Where results go, relative to the project workdir. */
export const OCR_OUTPUT_DIR = 'outputs/ocr';

const MAX_STEM_CHARS = 80;
const MAX_NAME_ATTEMPTS = 1000;

/**
 * The stem of a result file, from the source's name: the extension dropped, every run of characters
 * other than letters (any script, so Chinese names stay readable), digits, `_` and `-` turned into one
 * `_`, at most 80 characters; `document` when nothing is left.
 */
export function outputStem(sourceName: string): string {
  const base = sourceName.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const safe = stem
    .replace(/[^\p{L}\p{M}\p{N}_-]+/gu, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
  const cut = [...safe].slice(0, MAX_STEM_CHARS).join('');
  return cut === '' ? 'document' : cut;
}

/** `x.md`, `x-1.md`, `x-2.md`, …: the names tried until one is free. */
export function* outputNames(stem: string, attempts = MAX_NAME_ATTEMPTS): Generator<string> {
  yield `${stem}.md`;
  for (let n = 1; n < attempts; n++) yield `${stem}-${n}.md`;
}

/** A directory as the resolver returned it. */
export interface OutputDirectory {
  virtualPath: string;
  realPath: string;
}

async function createDirectory(directory: OutputDirectory): Promise<void> {
  try {
    await mkdir(directory.realPath, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file stands where a folder of the path should be.
    if (code === 'EEXIST' || code === 'ENOTDIR') throw WorkspaceErrors.notADirectory(directory.virtualPath);
    throw error;
  }
}

/**
 * Writes `content` to a new file `<stem>.md` (or the first free `<stem>-N.md`) in `directory`,
 * creating the directory. O_EXCL: an existing name, even a dangling symlink, is never opened, so
 * nothing is overwritten and two concurrent calls never pick the same name. Returns its virtual path.
 */
export async function writeNewMarkdown(
  directory: OutputDirectory,
  stem: string,
  content: string,
): Promise<string> {
  await createDirectory(directory);
  for (const name of outputNames(stem)) {
    const target = join(directory.realPath, name);
    let handle: FileHandle;
    try {
      handle = await open(target, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      await handle.writeFile(content, 'utf8');
    } catch (error) {
      await handle.close();
      await unlink(target).catch(() => undefined);
      throw error;
    }
    await handle.close();
    return `${directory.virtualPath}/${name}`;
  }
  throw OcrErrors.outputNamesExhausted(`${stem}.md`);
}
