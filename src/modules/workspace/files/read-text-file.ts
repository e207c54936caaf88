import type { ToolOutput } from '../../tools/index.js';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { imageMimeType, looksBinary } from './file-kind.js';
import { openRegularFile, readHead, streamLines } from './open-file.js';

export interface LineWindow {
  /** 0-based index of the first line to return (= how many lines to skip). */
  offset: number;
  limit: number;
  /** Characters of the page (numbered lines); its first line is returned whatever its length. */
  maxChars: number;
}

const { maxLineChars } = WORKSPACE_LIMITS.read;

/**
 * A text file as `cat -n` shows it (1-based numbers, a tab, the line), one window of lines at a time.
 * Images come back as a reference for the client to fetch; other binary files are refused.
 */
export async function readTextFile(target: ResolvedWorkspacePath, window: LineWindow): Promise<ToolOutput> {
  const { handle, stats } = await openRegularFile(target);
  try {
    const mimeType = imageMimeType(target.virtualPath);
    if (mimeType !== undefined) {
      return { type: 'image', path: target.virtualPath, mime_type: mimeType, size: stats.size };
    }
    if (looksBinary(await readHead(handle, WORKSPACE_LIMITS.binarySniffBytes))) {
      throw WorkspaceErrors.binaryFile(target.virtualPath);
    }
    const shown: string[] = [];
    let index = 0;
    let chars = 0;
    let more = false;
    for await (const line of streamLines(handle, maxLineChars)) {
      if (index < window.offset) {
        index += 1;
        continue;
      }
      const text =
        line.length > maxLineChars
          ? `${line.text.slice(0, maxLineChars)} … [line truncated: ${line.length} characters]`
          : line.text;
      const numbered = `${String(index + 1).padStart(6)}\t${text}`;
      const full = shown.length > 0 && chars + numbered.length + 1 > window.maxChars;
      if (shown.length >= window.limit || full) {
        more = true;
        break;
      }
      shown.push(numbered);
      chars += numbered.length + 1;
      index += 1;
    }
    if (shown.length === 0) {
      if (index === 0) return '(the file is empty)';
      throw WorkspaceErrors.offsetOutOfRange(target.virtualPath, window.offset, index);
    }
    if (!more) return shown.join('\n');
    const next = window.offset + shown.length;
    return `${shown.join('\n')}\n\n[lines ${window.offset + 1}-${next} shown; more follow: read again with offset=${next}]`;
  } finally {
    await handle.close();
  }
}
