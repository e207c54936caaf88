import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { onPath } from './fs-errors.js';

export interface OpenFile {
  handle: FileHandle;
  stats: Stats;
}

/**
 * Opens a regular file for reading. O_NONBLOCK keeps a FIFO from blocking the open; the type is then
 * checked on the open descriptor, so what is read is what was checked. The caller closes the handle.
 */
export async function openRegularFile(target: ResolvedWorkspacePath): Promise<OpenFile> {
  const handle = await onPath(target.virtualPath, () =>
    open(target.realPath, constants.O_RDONLY | constants.O_NONBLOCK),
  );
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw WorkspaceErrors.isADirectory(target.virtualPath);
    if (!stats.isFile()) throw WorkspaceErrors.notAFile(target.virtualPath);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export async function readHead(handle: FileHandle, bytes: number): Promise<Buffer> {
  const buffer = Buffer.alloc(bytes);
  const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
  return buffer.subarray(0, bytesRead);
}

export interface StreamedLine {
  /** The line without its end of line, cut to at most `keepChars + 1` characters. */
  text: string;
  /** Its full length in characters. */
  length: number;
}

/**
 * Streams lines split on `\n` (a trailing `\r` dropped, as `splitLines` does) without holding more than
 * `keepChars` of any one line in memory, so a huge file or a file without newlines stays cheap.
 */
export async function* streamLines(handle: FileHandle, keepChars: number): AsyncGenerator<StreamedLine> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let length = 0;
  let endsWithCr = false;
  const append = (part: string) => {
    if (part === '') return;
    if (pending.length <= keepChars) pending += part.slice(0, keepChars + 1 - pending.length);
    length += part.length;
    endsWithCr = part.endsWith('\r');
  };
  const flush = (): StreamedLine => {
    const full = endsWithCr ? length - 1 : length;
    const line = { text: pending.slice(0, full), length: full };
    pending = '';
    length = 0;
    endsWithCr = false;
    return line;
  };
  for await (const chunk of handle.createReadStream({ start: 0, autoClose: false })) {
    const text = decoder.write(chunk as Buffer);
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      append(text.slice(from, newline));
      yield flush();
      from = newline + 1;
    }
    append(text.slice(from));
  }
  append(decoder.end());
  if (length > 0) yield flush();
}
